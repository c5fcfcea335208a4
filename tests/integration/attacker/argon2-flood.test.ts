// argon2id as a denial-of-service lever. All argon2 work goes through one
// bounded pool that sheds what it cannot queue (503 + Retry-After, at once); recovery codes are
// random and stored as HMAC-SHA-256, so regenerating them costs one password check and no hash per
// code; and every endpoint that checks a password, a code or a token is limited per IP.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argon2Pool, defaultArgon2PoolOptions, replaceArgon2Pool } from '../../../src/server/lib/argon2-pool';
import { PASSWORD_HASH_OPTIONS } from '../../../src/server/lib/passwords';
import { REPEATED_REFUSAL_DELAY_MS } from '../../../src/server/lib/repeated-refusals';
import { recoveryCodes } from '../../../src/server/db/schema';
import { base32Decode, totp } from '../../../src/server/lib/totp';
import { AUTH_RATE_LIMITS } from '../../../src/server/features/auth/limits';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { STRONG_PASSWORD, client, loginVia, registerVia, type TestClient } from '../../helpers/auth-client';

let ipCounter = 0;
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
let emailCounter = 0;
const freshEmail = (label: string) => `${label}-${++emailCounter}-${Date.now()}@example.com`;

describe('attacker: argon2id flood', () => {
  let t: TestApp;
  const STEP_MS = 30_000;
  let clock = new Date(Math.ceil(Date.now() / STEP_MS) * STEP_MS);
  beforeAll(async () => {
    // This file is about the pool's queue, so it hashes as production does (idle, decision 184), not
    // at the normal priority the other integration tests use: at normal priority the hashes finish
    // before a burst of sign-ins has filled the queue, and there is no queue to observe.
    await replaceArgon2Pool({ ...defaultArgon2PoolOptions(), priority: 'idle' });
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signedIn(label: string, ip = freshIp()): Promise<{ c: TestClient; email: string; userId: string }> {
    const c = client(t.app, ip);
    const email = freshEmail(label);
    const res = await registerVia(c, email);
    expect(res.statusCode, res.body).toBe(201);
    return { c, email, userId: res.json().id };
  }

  it('past the pool’s queue a password check is refused at once: 503 service_unavailable with Retry-After, never a 500', async () => {
    const { email } = await signedIn('flooded');
    const { threads, queueLimit } = argon2Pool().stats();
    // Three times what the pool holds (hashing and queued), each from an address of its own so
    // that no per-IP limit is what answers.
    const attempts = 3 * (threads + queueLimit);
    const answers = await Promise.all(Array.from({ length: attempts }, (_, i) => loginVia(client(t.app, freshIp()), email, i % 2 ? STRONG_PASSWORD : 'Wrong-Guess-77')));
    const statuses = answers.map((a) => a.statusCode);
    const shed = answers.filter((a) => a.statusCode === 503);
    expect(shed.length, `statuses: ${statuses.join(',')}`).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 401 || s === 503 || s === 429)).toBe(true);
    // At most one hash per core at a time and a short queue: what was not shed fitted in it.
    expect(statuses.filter((s) => s === 200 || s === 401).length).toBeGreaterThanOrEqual(threads);
    for (const res of shed) {
      expect(res.json().error.code).toBe('service_unavailable');
      expect(res.json().error.message).toMatch(/try again in a few seconds/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The pool never ran more than one hash per thread, and refused exactly what it shed.
    expect(argon2Pool().stats().refused).toBeGreaterThanOrEqual(shed.length);
  });

  it('when the pool would refuse anyway, the refusal comes first: before the body is read or validated and before any account lookup (decision 131)', async () => {
    const ip = freshIp();
    const { threads, queueLimit } = argon2Pool().stats();
    // Slow hashes of this address's own fill every thread and the whole queue for a while.
    const slow = { ...PASSWORD_HASH_OPTIONS, memoryCost: 64 * 1024, timeCost: 3 };
    const filling = Array.from({ length: threads + queueLimit }, () => argon2Pool().hash('x', slow, ip).catch(() => 'refused'));
    try {
      const c = client(t.app, ip);
      // A body that would be a 400: the busy pool answers first, at no cost of parsing or lookup.
      let sentAt = performance.now();
      const busy = await c.request('POST', '/api/auth/login', { email: 'not-an-email' });
      expect(busy.statusCode, busy.body).toBe(503);
      expect(busy.json().error.code).toBe('service_unavailable');
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
      expect(performance.now() - sentAt, 'a first refusal is sent at once').toBeLessThan(REPEATED_REFUSAL_DELAY_MS / 2);
      // Back at once instead of after Retry-After: the same refusal, after a second (decision 137).
      sentAt = performance.now();
      const repeated = await c.request('POST', '/api/auth/login', { email: 'not-an-email' });
      expect(repeated.statusCode, repeated.body).toBe(503);
      expect(performance.now() - sentAt).toBeGreaterThanOrEqual(REPEATED_REFUSAL_DELAY_MS - 50);
      // A signed-out caller of a session-only check still learns only that it must sign in.
      const signedOut = await c.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD });
      expect(signedOut.statusCode).toBe(401);
      // Another address, which has not used the pool, is not refused early.
      const other = await loginVia(client(t.app, freshIp()), freshEmail('elsewhere'), 'Wrong-Guess-78');
      expect([401, 503]).toContain(other.statusCode);
    } finally {
      await Promise.all(filling);
    }
  });

  it('sign-ins whose clients hang up while they wait for the pool are never hashed', async () => {
    const { email } = await signedIn('hang-up');
    const before = argon2Pool().stats();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const body = JSON.stringify({ email, password: STRONG_PASSWORD, rememberMe: false });
    const sent = Array.from({ length: before.threads + before.queueLimit }, () => {
      const request = http.request(`${address}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: address, 'content-length': Buffer.byteLength(body) },
      });
      request.on('error', () => {});
      request.end(body);
      return request;
    });
    // Every request has reached the pool (a thread or its queue) before its client hangs up.
    await expect.poll(() => argon2Pool().stats().started + argon2Pool().stats().queued - before.started, { interval: 1, timeout: 10_000 }).toBe(sent.length);
    const atHangUp = argon2Pool().stats();
    for (const request of sent) request.destroy();
    await expect.poll(() => argon2Pool().stats().running + argon2Pool().stats().queued, { timeout: 10_000 }).toBe(0);
    const after = argon2Pool().stats();
    // The hashes running at the hang-up finish (and a thread freed before the server has read
    // every hang-up may take one more job each); the rest of the queue is dropped unhashed.
    expect(after.started - before.started + (after.abandoned - before.abandoned)).toBe(sent.length);
    expect(atHangUp.queued).toBeGreaterThan(atHangUp.threads);
    expect(after.abandoned - before.abandoned).toBeGreaterThanOrEqual(atHangUp.queued - atHangUp.threads);
  });

  it('the OpenAPI document tells clients about the 503 where a password is hashed or checked', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    for (const path of ['/api/auth/login', '/api/auth/register', '/api/auth/reauthenticate', '/api/auth/password-reset/confirm', '/api/me/two-factor/recovery-codes', '/api/me/password']) {
      const operation = Object.values(doc.paths[path] ?? {})[0];
      expect(operation?.responses['503'], path).toBeDefined();
      expect(operation?.responses['503']?.headers?.['Retry-After'], path).toBeDefined();
    }
  });

  it('regenerating recovery codes costs one argon2id check (the password), none per code; codes carry at least 128 random bits', async () => {
    const { c, userId } = await signedIn('regen');
    const setup = await c.request('POST', '/api/me/two-factor/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const enable = await c.request('POST', '/api/me/two-factor/enable', { code: totp(base32Decode(setup.json().secret), clock) });
    expect(enable.statusCode, enable.body).toBe(200);

    const before = argon2Pool().stats().started;
    const res = await c.request('POST', '/api/me/two-factor/recovery-codes', { currentPassword: STRONG_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(argon2Pool().stats().started - before).toBe(1);

    const codes: string[] = res.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const code of codes) {
      const compact = code.replaceAll('-', '');
      // base32: 5 bits a character.
      expect(compact).toMatch(/^[A-Z2-7]+$/);
      expect(compact.length * 5).toBeGreaterThanOrEqual(128);
    }
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.codeHash))).toBe(true);

    // Checking a recovery code costs no argon2id either.
    clock = new Date(clock.getTime() + STEP_MS);
    const challenge = await loginVia(client(t.app, freshIp()), (await t.database.db.query.users.findFirst({ where: (u, { eq: equal }) => equal(u.id, userId) }))!.email);
    const beforeCode = argon2Pool().stats().started;
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/two-factor',
      remoteAddress: freshIp(),
      headers: { host: 'localhost', origin: 'http://localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ challengeId: challenge.json().challengeId, code: codes[0] }),
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(argon2Pool().stats().started - beforeCode).toBe(0);
  });

  describe('every endpoint that checks a password, a code or a token is limited per IP', () => {
    async function floodFrom(ip: string, times: number, send: (i: number) => Promise<{ statusCode: number }>) {
      const statuses: number[] = [];
      for (let i = 0; i < times; i += 1) statuses.push((await send(i)).statusCode);
      return statuses;
    }

    it('sign-in: many e-mails from one address', async () => {
      const ip = freshIp();
      const statuses = await floodFrom(ip, AUTH_RATE_LIMITS.login.perIp + 1, () => loginVia(client(t.app, ip), freshEmail('nobody'), 'Wrong-Guess-1'));
      expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      // Refused again before its body is read (decision 132): a body that would be a 400 gets the
      // 429, and since the address did not wait as told, only after a second (decision 137).
      const sentAt = performance.now();
      const again = await client(t.app, ip).request('POST', '/api/auth/login', { email: 'not-an-email' });
      expect(again.statusCode, again.body).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
      expect(performance.now() - sentAt).toBeGreaterThanOrEqual(REPEATED_REFUSAL_DELAY_MS - 50);
    });

    it('the two-factor step, the reset link and the unlock link: many tokens from one address', async () => {
      for (const [url, limit, body] of [
        ['/api/auth/login/two-factor', AUTH_RATE_LIMITS.twoFactor.perIp, (i: number) => ({ challengeId: `${'c'.repeat(40)}${String(i).padStart(3, '0')}`, code: '123456' })],
        ['/api/auth/password-reset/confirm', AUTH_RATE_LIMITS.token.perIp, (i: number) => ({ token: `${'t'.repeat(40)}${String(i).padStart(3, '0')}`, password: 'New-Strong-Pass-1' })],
        ['/api/auth/two-factor/unlock', AUTH_RATE_LIMITS.token.perIp, (i: number) => ({ token: `${'u'.repeat(40)}${String(i).padStart(3, '0')}` })],
      ] as const) {
        const c = client(t.app, freshIp());
        const statuses = await floodFrom(c.ip, limit + 1, (i) => c.request('POST', url, body(i)));
        expect(statuses.slice(0, -1).every((s) => s === 400 || s === 401), `${url}: ${statuses.join(',')}`).toBe(true);
        expect(statuses.at(-1), url).toBe(429);
        expect((await c.request('POST', url, {})).statusCode, `${url} after its 429, with an empty body`).toBe(429);
      }
    });

    it('current-password checks: the sessions of many accounts from one address', async () => {
      const ip = freshIp();
      const limit = AUTH_RATE_LIMITS.passwordCheck.perIp;
      const accounts = [];
      // One at a time: registering hashes too, and the pool is not what this test is about.
      for (let i = 0; i <= limit; i += 1) accounts.push(await signedIn('shared-ip'));
      const statuses: number[] = [];
      for (const account of accounts) {
        const here = client(t.app, ip);
        here.cookie = account.c.cookie;
        // Right passwords: only the per-IP limit can refuse the last one.
        statuses.push((await here.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode);
      }
      expect(statuses.slice(0, -1).every((s) => s === 204), statuses.join(',')).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      // Every route that counts its attempts on this limit refuses the address before its body is read.
      for (const url of ['/api/auth/reauthenticate', '/api/me/email', '/api/me/password', '/api/me/two-factor/disable', '/api/me/two-factor/recovery-codes']) {
        const here = client(t.app, ip);
        here.cookie = accounts.at(-1)!.c.cookie; // the refused one: its session was not rotated
        const res = await here.request(url.startsWith('/api/me/e') || url === '/api/me/password' ? 'PUT' : 'POST', url, {});
        expect(res.statusCode, `${url}: ${res.body}`).toBe(429);
      }
    });
  });
});
