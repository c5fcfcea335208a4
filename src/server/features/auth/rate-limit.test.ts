import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, requireEngine, type TestDatabase } from '../../../../tests/helpers/test-db';
import { countAttempt, rateLimit, rateLimitKey, RATE_LIMITED_MESSAGE } from '../../plugins/rate-limit';
import { AppError } from '../../lib/errors';

const run = await requireEngine();

describe.skipIf(!run)('rate limiter (PostgreSQL fixed windows)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const now = new Date('2026-03-02T12:00:30.000Z');

  it('counts concurrent attempts exactly: each gets its own number, none is lost', async () => {
    const key = rateLimitKey('test:concurrent', 'x');
    const counts = await Promise.all(Array.from({ length: 25 }, () => countAttempt(database.db, { key, limit: 100, windowMs: 60_000, now })));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('refuses the attempt after the limit with 429 rate_limited, and a new window starts from 1', async () => {
    const key = rateLimitKey('test:limit', 'y');
    for (let i = 1; i <= 3; i += 1) {
      expect((await rateLimit(database.db, { key, limit: 3, windowMs: 60_000, now })).remaining).toBe(3 - i);
    }
    const refused = await rateLimit(database.db, { key, limit: 3, windowMs: 60_000, now }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', message: RATE_LIMITED_MESSAGE });
    const nextWindow = new Date('2026-03-02T12:01:00.000Z');
    expect((await rateLimit(database.db, { key, limit: 3, windowMs: 60_000, now: nextWindow })).count).toBe(1);
    // An instance whose clock lags behind does not reset the newer window.
    expect((await countAttempt(database.db, { key, limit: 3, windowMs: 60_000, now })).count).toBe(2);
  });

  it('keys hold no personal data and have a bounded length', () => {
    const key = rateLimitKey('login:email', 'someone@example.com');
    expect(key).not.toContain('someone');
    expect(rateLimitKey('login:email', 'x'.repeat(10_000)).length).toBeLessThan(60);
  });
});
