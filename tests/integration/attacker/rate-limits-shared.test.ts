// The rate-limit library (decision 082): on PostgreSQL the counters live in the database, so a limit
// holds across several instances of the app; an attacker cannot multiply its allowance by
// spreading its attempts over the instances behind a balancer (decision 082).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db/client';
import { AUTH_RATE_LIMITS } from '../../../src/server/features/auth/limits';
import { MONEY_RATE_LIMITS } from '../../../src/server/lib/money-limits';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';
import { client, loginVia, registerVia } from '../../helpers/auth-client';

describe('attacker: rate limits shared by two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let secondHandle: Database;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    secondHandle = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolSize: 5 });
    a = await createTestApp({ database });
    b = await createTestApp({ database: { ...secondHandle, url: database.url, drop: async () => {} } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await secondHandle?.close();
    await database?.drop();
  });

  it('sign-in failures per account and IP: half on each instance add up, and the next is refused on both', async () => {
    const email = `shared-${Date.now()}@example.com`;
    expect((await registerVia(client(a.app, '10.99.0.1'), email)).statusCode).toBe(201);
    const ip = '10.99.0.2';
    const limit = AUTH_RATE_LIMITS.login.failuresPerAccountAndIp;
    for (let i = 0; i < limit; i += 1) {
      const instance = i % 2 === 0 ? a : b;
      expect((await loginVia(client(instance.app, ip), email, `Wrong-Guess-${i}`)).statusCode).toBe(401);
    }
    for (const instance of [a, b]) {
      const refused = await loginVia(client(instance.app, ip), email);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('per-IP limits hold across instances too', async () => {
    const ip = '10.99.0.3';
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_RATE_LIMITS.login.perIp; i += 1) {
      const instance = i % 2 === 0 ? a : b;
      statuses.push((await loginVia(client(instance.app, ip), `nobody-${i}@example.com`, 'Wrong-Guess-1')).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('a per-user money limit is one count for the user, whichever instance answers', async () => {
    const c = client(a.app, '10.99.0.4');
    expect((await registerVia(c, `money-${Date.now()}@example.com`)).statusCode).toBe(201);
    const other = client(b.app, '10.99.0.4');
    other.cookie = c.cookie;
    const limit = MONEY_RATE_LIMITS.cardReveal.points;
    const statuses: number[] = [];
    // Reveals of a card that does not exist: each still counts (404), and the limit comes first.
    for (let i = 0; i <= limit; i += 1) {
      const who = i % 2 === 0 ? c : other;
      statuses.push((await who.request('POST', '/api/cards/00000000-0000-4000-8000-000000000000/reveal')).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s !== 429), statuses.join(',')).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
