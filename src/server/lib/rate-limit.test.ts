import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db';
import { limitOn, rateLimitKey, waitText } from './rate-limit';
import { AppError } from './errors';

describe('waitText: the wait a refusal names, from its Retry-After', () => {
  it('rounds up to whole minutes, then whole hours', () => {
    expect([1, 59, 60, 61, 120, 121, 899, 900, 3540, 3541, 3600, 3601, 7200, 86_400].map(waitText)).toEqual([
      'a minute',
      'a minute',
      'a minute',
      '2 minutes',
      '2 minutes',
      '3 minutes',
      '15 minutes',
      '15 minutes',
      '59 minutes',
      'an hour',
      'an hour',
      '2 hours',
      '2 hours',
      '24 hours',
    ]);
  });
});

describe('rate limits (rate-limiter-flexible on the table rate_limit_counters)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('counts concurrent attempts exactly: with 25 at once against a limit of 20, exactly 5 are refused', async () => {
    const limit = limitOn(database.db, 'test:concurrent', { points: 20, durationSeconds: 60 });
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => limit.consume('x')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as AppError);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Please wait a minute and try again.' });
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    expect(await limit.used('x')).toBe(25);
  });

  it('failure counting: check refuses only once the count is used up; reset forgets it', async () => {
    const limit = limitOn(database.db, 'test:failures', { points: 3, durationSeconds: 60 });
    for (let i = 0; i < 3; i += 1) {
      await expect(limit.check('a', '1.2.3.4')).resolves.toBeUndefined();
      expect(await limit.count('a', '1.2.3.4')).toBe(i === 2);
    }
    await expect(limit.check('a', '1.2.3.4')).rejects.toMatchObject({ statusCode: 429 });
    // Another address, or another account, has its own count.
    await expect(limit.check('a', '5.6.7.8')).resolves.toBeUndefined();
    await expect(limit.check('b', '1.2.3.4')).resolves.toBeUndefined();
    await limit.reset('a', '1.2.3.4');
    await expect(limit.check('a', '1.2.3.4')).resolves.toBeUndefined();
  });

  // A count made inside a transaction would vanish with its rollback, and hold the caller's locks.
  it('are counted on the database handle, never inside a transaction', async () => {
    await expect(database.db.transaction(async (tx) => limitOn(tx, 'test:in-transaction', { points: 1, durationSeconds: 60 }))).rejects.toThrow(
      /on the database handle, not inside a transaction/,
    );
  });

  it('keys hold no personal data and have a bounded length', () => {
    const key = rateLimitKey('someone@example.com');
    expect(key).not.toContain('someone');
    expect(rateLimitKey('x'.repeat(10_000)).length).toBeLessThan(60);
    expect(rateLimitKey('a', 'bc')).not.toBe(rateLimitKey('ab', 'c'));
  });
});
