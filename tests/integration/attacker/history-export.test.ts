// Decision 174: GET /api/history.csv reads up to 5,000 combines with their sources and builds the
// file in the server's process. Measured on PostgreSQL with a full history, one export took 0.25 s
// (one source per combine) to 2.4 s (ten), and eight clients looping on it took another user's
// dashboard from 20 ms to 2.4 s. Exports are now limited per user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_EXPORT_LIMIT } from '../../../src/server/features/history/routes';
import { createCard, registerUser } from '../../helpers/api-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

describe('attacker: a loop of history exports (decision 174)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it(`a user gets ${HISTORY_EXPORT_LIMIT.points} exports in 10 minutes, whatever the range, then 429 with the wait; another user is not affected`, async () => {
    const user = await registerUser(t.app);
    expect((await createCard(user, '40')).statusCode).toBe(201);
    const ranges = ['all', '7d', '1m'] as const;
    for (let i = 0; i < HISTORY_EXPORT_LIMIT.points; i += 1) {
      const res = await user.request('GET', `/api/history.csv?range=${ranges[i % ranges.length]}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    }
    const refused = await user.request('GET', '/api/history.csv');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json().error).toEqual({ code: 'rate_limited', message: 'Too many exports in a short time. Please wait 10 minutes and try again.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(9 * 60);
    expect(refused.body).not.toContain('Combine ID');

    const other = await registerUser(t.app);
    expect((await other.request('GET', '/api/history.csv')).statusCode).toBe(200);
  });
});
