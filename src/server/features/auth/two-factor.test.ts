import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { STRONG_PASSWORD, client, loginVia, registerVia, sessionCookieOf, type TestClient } from '../../../../tests/helpers/auth-client';
import { auditLog, outbox, recoveryCodes, sessions, twoFactorChallenges, users } from '../../db/schema';
import { base32Decode, base32Encode, hotp, totp, totpStep } from '../../lib/totp';
import { AUTH_RATE_LIMITS } from './limits';
import { decryptTotpSecret, encryptTotpSecret, totpKey } from './two-factor';
import { CHALLENGE_MAX_ATTEMPTS, CHALLENGE_VALID_MS } from './two-factor-sign-in';

const MINUTE_MS = 60_000;
const STEP_MS = 30_000;

let ipCounter = 0;
const freshIp = () => `10.42.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
let emailCounter = 0;
const freshEmail = (label = 'tfa') => `${label}-${++emailCounter}@example.com`;

function errorOf(res: { json(): unknown }) {
  const { code, message } = (res.json() as { error: { code: string; message: string } }).error;
  return { code, message };
}

describe('two-factor sign-in (TOTP and recovery codes)', () => {
  let t: TestApp;
  // Starts on a step boundary, so "the next code" is always exactly one step away.
  let clock = new Date(Math.ceil(Date.parse('2026-03-02T12:00:00.000Z') / STEP_MS) * STEP_MS);
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { APP_URL: 'https://payweave.test' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  // Every test starts in a fresh rate-limit window and a fresh TOTP step.
  beforeEach(() => advance(MINUTE_MS));

  type Account = { email: string; userId: string; secret: Buffer; codes: string[]; browser: TestClient };

  /** A signed-in account with two-factor sign-in on; the enabling code's step is used up. */
  async function accountWithTwoFactor(label = 'tfa'): Promise<Account> {
    const browser = client(t.app, freshIp());
    const email = freshEmail(label);
    const registered = await registerVia(browser, email);
    expect(registered.statusCode).toBe(201);
    const setup = await browser.request('POST', '/api/me/two-factor/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const secret = base32Decode(setup.json().secret);
    const enabled = await browser.request('POST', '/api/me/two-factor/enable', { code: totp(secret, clock) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    return { email, userId: registered.json().id, secret, codes: enabled.json().recoveryCodes, browser };
  }

  async function challengeFor(account: Account, c = client(t.app, freshIp()), rememberMe = false) {
    const res = await loginVia(c, account.email, STRONG_PASSWORD, rememberMe);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ twoFactorRequired: true, challengeId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(sessionCookieOf(res)).toBeUndefined();
    return { c, challengeId: body.challengeId as string };
  }

  const secondStep = (c: TestClient, challengeId: string, code: string) => c.request('POST', '/api/auth/login/two-factor', { challengeId, code });

  async function auditEvents(userId: string) {
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.userId, userId));
    return rows;
  }

  describe('enrolment', () => {
    it('setup needs a session and a recently entered password', async () => {
      const visitor = client(t.app, freshIp());
      expect((await visitor.request('POST', '/api/me/two-factor/setup')).statusCode).toBe(401);

      const c = client(t.app, freshIp());
      await registerVia(c, freshEmail('reauth'));
      advance(5 * MINUTE_MS + 1000);
      const stale = await c.request('POST', '/api/me/two-factor/setup');
      expect(stale.statusCode).toBe(403);
      expect(errorOf(stale).code).toBe('reauthentication_required');
      expect((await c.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
      expect((await c.request('POST', '/api/me/two-factor/setup')).statusCode).toBe(200);
    });

    it('setup answers the base32 secret and the otpauth URI, keeps the secret encrypted and pending', async () => {
      const c = client(t.app, freshIp());
      const email = freshEmail('setup');
      const userId = (await registerVia(c, email)).json().id as string;
      const res = await c.request('POST', '/api/me/two-factor/setup');
      const { secret, otpauthUri } = res.json();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const [uriPath, uriQuery] = (otpauthUri as string).split('?');
      expect(uriPath).toBe(`otpauth://totp/PayWeave:${encodeURIComponent(email)}`);
      expect(Object.fromEntries(new URLSearchParams(uriQuery))).toEqual({ secret, issuer: 'PayWeave', algorithm: 'SHA1', digits: '6', period: '30' });
      const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
      expect(row).toMatchObject({ totpEnabled: false, totpSecretEnc: null });
      expect(row?.totpPendingSecretEnc).toBeTruthy();
      expect(row?.totpPendingSecretEnc).not.toContain(secret);
      expect(decryptTotpSecret(totpKey(t.config.cardDataKey), userId, row!.totpPendingSecretEnc!)).toBe(secret);
      expect((await c.request('GET', '/api/me')).json().twoFactorEnabled).toBe(false);
      // An unconfirmed setup changes nothing at sign-in.
      expect((await loginVia(client(t.app, freshIp()), email)).json()).toMatchObject({ email });
    });

    it('a wrong code does not enable it; the right one does and returns 10 single-shown recovery codes', async () => {
      const c = client(t.app, freshIp());
      const email = freshEmail('enable');
      const userId = (await registerVia(c, email)).json().id as string;
      const other = client(t.app, freshIp());
      await loginVia(other, email);
      const secret = base32Decode((await c.request('POST', '/api/me/two-factor/setup')).json().secret);

      const wrongCode = String((Number(totp(secret, clock)) + 1) % 1_000_000).padStart(6, '0');
      for (const code of [wrongCode, 'abcdef', hotp(secret, totpStep(clock) - 2)]) {
        const wrong = await c.request('POST', '/api/me/two-factor/enable', { code });
        expect(wrong.statusCode).toBe(400);
        expect(errorOf(wrong)).toEqual({ code: 'invalid_code', message: 'Invalid authentication code' });
      }
      expect((await c.request('GET', '/api/me')).json().twoFactorEnabled).toBe(false);

      const res = await c.request('POST', '/api/me/two-factor/enable', { code: totp(secret, clock) });
      expect(res.statusCode).toBe(200);
      const codes: string[] = res.json().recoveryCodes;
      expect(codes).toHaveLength(10);
      for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){6}$/);
      expect(new Set(codes).size).toBe(10);

      expect((await c.request('GET', '/api/me')).json().twoFactorEnabled).toBe(true);
      expect((await c.request('GET', '/api/me/two-factor')).json()).toEqual({ enabled: true, recoveryCodesRemaining: 10 });
      const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      expect(stored).toHaveLength(10);
      for (const row of stored) {
        expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/); // HMAC-SHA-256 (decision 081)
        for (const code of codes) expect(row.codeHash).not.toContain(code.replace('-', ''));
      }
      // The other session ended (it may have been an intruder's); this one stays.
      expect((await other.request('GET', '/api/me')).statusCode).toBe(401);
      const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
      expect(row).toMatchObject({ totpEnabled: true, totpPendingSecretEnc: null, totpLastStep: totpStep(clock) });
      // Audited and e-mailed, with neither the secret nor a code anywhere.
      const events = await auditEvents(userId);
      expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['two_factor_setup_started', 'two_factor_enable_failed', 'two_factor_enabled']));
      const mail = await t.database.db.select().from(outbox).where(eq(outbox.toAddress, email));
      expect(mail.map((m) => m.subject)).toContain('Two-factor sign-in is on for your PayWeave account');
      const everything = JSON.stringify([events, mail]);
      for (const code of codes) expect(everything).not.toContain(code);
      expect(everything).not.toContain(base32Encode(secret));

      // Once on, a new setup is refused until it is turned off.
      const again = await c.request('POST', '/api/me/two-factor/setup');
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).code).toBe('two_factor_already_enabled');
    });

    it('a setup left unconfirmed for more than 30 minutes must be started again', async () => {
      const c = client(t.app, freshIp());
      await registerVia(c, freshEmail('stale-setup'));
      const secret = base32Decode((await c.request('POST', '/api/me/two-factor/setup')).json().secret);
      advance(31 * MINUTE_MS);
      const res = await c.request('POST', '/api/me/two-factor/enable', { code: totp(secret, clock) });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'two_factor_setup_expired', message: 'This setup has expired. Please start again.' });
    });

    it('a secret encrypted for one account does not decrypt for another', () => {
      const key = totpKey(t.config.cardDataKey);
      const stored = encryptTotpSecret(key, '00000000-0000-4000-8000-000000000001', Buffer.from('12345678901234567890'));
      expect(() => decryptTotpSecret(key, '00000000-0000-4000-8000-000000000002', stored)).toThrow();
    });
  });

  describe('signing in', () => {
    it('the password alone creates no session; the code does, with the remember-me choice of the first step', async () => {
      const account = await accountWithTwoFactor('login');
      advance(STEP_MS);
      const { c, challengeId } = await challengeFor(account, client(t.app, freshIp()), true);
      expect((await c.request('GET', '/api/me')).statusCode).toBe(401);
      const sessionsBefore = await t.database.db.select().from(sessions).where(eq(sessions.userId, account.userId));

      const res = await secondStep(c, challengeId, totp(account.secret, clock));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ email: account.email, twoFactorEnabled: true });
      const cookie = sessionCookieOf(res);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      expect(cookie?.maxAge).toBeGreaterThan(29 * 24 * 3600);
      expect((await c.request('GET', '/api/me')).statusCode).toBe(200);
      const sessionsAfter = await t.database.db.select().from(sessions).where(eq(sessions.userId, account.userId));
      expect(sessionsAfter).toHaveLength(sessionsBefore.length + 1);
      expect(sessionsAfter.find((s) => !sessionsBefore.some((b) => b.id === s.id))?.remember).toBe(true);
      // The challenge is spent.
      const again = await secondStep(client(t.app, freshIp()), challengeId, totp(account.secret, clock));
      expect(errorOf(again).code).toBe('two_factor_challenge_expired');

      // Without remember-me: a browser-session cookie.
      advance(STEP_MS);
      const second = await challengeFor(account);
      const plain = await secondStep(second.c, second.challengeId, totp(account.secret, clock));
      expect(plain.statusCode).toBe(200);
      expect(sessionCookieOf(plain)?.maxAge).toBeUndefined();

      const events = (await auditEvents(account.userId)).map((e) => [e.event, e.details]);
      expect(events).toContainEqual(['sign_in', { rememberMe: true, secondFactor: 'totp' }]);
      expect(events).toContainEqual(['sign_in_second_factor_required', { rememberMe: true }]);
    });

    it('a wrong code is refused with a clear message and audited', async () => {
      const account = await accountWithTwoFactor('wrong');
      const { c, challengeId } = await challengeFor(account);
      const wrong = String((Number(totp(account.secret, clock)) + 1) % 1_000_000).padStart(6, '0');
      const res = await secondStep(c, challengeId, wrong);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({ code: 'invalid_code', message: 'Invalid authentication code' });
      expect(sessionCookieOf(res)).toBeUndefined();
      const failed = (await auditEvents(account.userId)).filter((e) => e.event === 'sign_in_second_factor_failed');
      expect(failed).toHaveLength(1);
      expect(JSON.stringify(failed)).not.toContain(wrong);
      // The challenge still takes the right code.
      advance(STEP_MS);
      expect((await secondStep(c, challengeId, totp(account.secret, clock))).statusCode).toBe(200);
    });

    it('a TOTP code is accepted once: replayed within its window it is refused', async () => {
      const account = await accountWithTwoFactor('replay');
      // The enabling code itself cannot sign in.
      const first = await challengeFor(account);
      const enablingCode = totp(account.secret, clock);
      expect(errorOf(await secondStep(first.c, first.challengeId, enablingCode)).code).toBe('invalid_code');

      advance(STEP_MS);
      const code = totp(account.secret, clock);
      expect((await secondStep(first.c, first.challengeId, code)).statusCode).toBe(200);

      const second = await challengeFor(account);
      const replayed = await secondStep(second.c, second.challengeId, code);
      expect(replayed.statusCode).toBe(401);
      expect(errorOf(replayed)).toEqual({ code: 'invalid_code', message: 'Invalid authentication code' });
      // Still within the ±1 window, 20 s later: still refused.
      advance(20_000);
      expect(errorOf(await secondStep(second.c, second.challengeId, code)).code).toBe('invalid_code');
      // The next step's code works.
      advance(STEP_MS);
      expect((await secondStep(second.c, second.challengeId, totp(account.secret, clock))).statusCode).toBe(200);
    });

    it('two concurrent uses of one code: exactly one session', async () => {
      const account = await accountWithTwoFactor('race');
      advance(STEP_MS);
      const a = await challengeFor(account);
      const b = await challengeFor(account);
      const code = totp(account.secret, clock);
      const answers = await Promise.all([secondStep(a.c, a.challengeId, code), secondStep(b.c, b.challengeId, code)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    });

    it('a recovery code signs in once, in any case and with or without the hyphen', async () => {
      const account = await accountWithTwoFactor('recovery');
      const recovery = account.codes[3]!;
      const { c, challengeId } = await challengeFor(account);
      const res = await secondStep(c, challengeId, ` ${recovery.replace('-', '').toLowerCase()} `);
      expect(res.statusCode, res.body).toBe(200);
      expect((await account.browser.request('GET', '/api/me/two-factor')).json()).toEqual({ enabled: true, recoveryCodesRemaining: 9 });
      const events = (await auditEvents(account.userId)).map((e) => [e.event, e.details]);
      expect(events).toContainEqual(['recovery_code_used', { remaining: 9 }]);
      expect(events).toContainEqual(['sign_in', { rememberMe: false, secondFactor: 'recovery_code' }]);
      const [used] = await t.database.db
        .select()
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, account.userId), isNull(recoveryCodes.usedAt)));
      expect(used).toBeDefined();

      const again = await challengeFor(account);
      const reused = await secondStep(again.c, again.challengeId, recovery);
      expect(reused.statusCode).toBe(401);
      expect(errorOf(reused)).toEqual({ code: 'invalid_code', message: 'Invalid authentication code' });
      expect((await secondStep(again.c, again.challengeId, account.codes[4]!)).statusCode).toBe(200);
    });

    it(`a challenge takes at most ${CHALLENGE_MAX_ATTEMPTS} codes`, async () => {
      const account = await accountWithTwoFactor('attempts');
      const { c, challengeId } = await challengeFor(account);
      const messages = [];
      for (let i = 0; i < CHALLENGE_MAX_ATTEMPTS; i += 1) messages.push(errorOf(await secondStep(c, challengeId, '000000')));
      expect(messages.slice(0, -1).every((m) => m.code === 'invalid_code')).toBe(true);
      expect(messages.at(-1)).toEqual({ code: 'two_factor_attempts_exhausted', message: 'Too many incorrect codes. Please sign in again.' });
      // Even the right code is refused now: back to the password.
      advance(STEP_MS);
      const after = await secondStep(c, challengeId, totp(account.secret, clock));
      expect(after.statusCode).toBe(401);
      expect(errorOf(after)).toEqual({ code: 'two_factor_challenge_expired', message: 'Your sign-in has expired. Please sign in again.' });
      expect(await t.database.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.userId, account.userId))).toHaveLength(0);
    });

    it('a challenge expires after 5 minutes', async () => {
      const account = await accountWithTwoFactor('expiry');
      const { c, challengeId } = await challengeFor(account);
      advance(CHALLENGE_VALID_MS + 1000);
      const res = await secondStep(c, challengeId, totp(account.secret, clock));
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({ code: 'two_factor_challenge_expired', message: 'Your sign-in has expired. Please sign in again.' });
      // Just inside the 5 minutes it works.
      const fresh = await challengeFor(account);
      advance(CHALLENGE_VALID_MS - 1000);
      expect((await secondStep(fresh.c, fresh.challengeId, totp(account.secret, clock))).statusCode).toBe(200);
    });

    it('an unknown or malformed challenge id is refused without a hint', async () => {
      const c = client(t.app, freshIp());
      for (const challengeId of ['x'.repeat(43), 'nope', 'A'.repeat(128)]) {
        const res = await secondStep(c, challengeId, '123456');
        expect(res.statusCode).toBe(401);
        expect(errorOf(res).code).toBe('two_factor_challenge_expired');
      }
      const missing = await c.request('POST', '/api/auth/login/two-factor', { challengeId: 'x'.repeat(43) });
      expect(missing.statusCode).toBe(400);
      expect(errorOf(missing).message).toBe('Authentication code is required');
    });

    it(`second-factor failures are limited per account and IP (${AUTH_RATE_LIMITS.twoFactor.failuresPerAccountAndIp}), attempts per IP (${AUTH_RATE_LIMITS.twoFactor.perIp}/min)`, async () => {
      const account = await accountWithTwoFactor('limit');
      const answers: number[] = [];
      const guesser = client(t.app, freshIp());
      for (let round = 0; round < 3; round += 1) {
        const { c, challengeId } = await challengeFor(account, guesser);
        for (let i = 0; i < 4; i += 1) answers.push((await secondStep(c, challengeId, '000000')).statusCode);
      }
      const limit = AUTH_RATE_LIMITS.twoFactor.failuresPerAccountAndIp;
      expect(answers.slice(0, limit).every((s) => s === 401)).toBe(true);
      expect(answers.slice(limit)).toEqual([429, 429]);
      // The owner, from another address, is not held back by them.
      advance(MINUTE_MS);
      const { c, challengeId } = await challengeFor(account);
      expect((await secondStep(c, challengeId, totp(account.secret, clock))).statusCode).toBe(200);

      advance(MINUTE_MS);
      const sprayer = client(t.app, freshIp());
      const statuses: number[] = [];
      for (let i = 0; i <= AUTH_RATE_LIMITS.twoFactor.perIp; i += 1) statuses.push((await secondStep(sprayer, 'y'.repeat(43), '000000')).statusCode);
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    });

    it('accounts without two-factor sign in with the password alone, as before', async () => {
      const email = freshEmail('plain');
      await registerVia(client(t.app, freshIp()), email);
      const res = await loginVia(client(t.app, freshIp()), email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email, twoFactorEnabled: false });
      expect(sessionCookieOf(res)).toBeDefined();
    });
  });

  describe('turning it off and new recovery codes', () => {
    it('disable needs the password and a code; then the password alone signs in', async () => {
      const account = await accountWithTwoFactor('disable');
      const c = account.browser;
      advance(STEP_MS);
      const wrongPassword = await c.request('POST', '/api/me/two-factor/disable', { currentPassword: 'Not-The-Pass-1', code: totp(account.secret, clock) });
      expect(wrongPassword.statusCode).toBe(400);
      expect(errorOf(wrongPassword).message).toBe('Your current password is incorrect.');
      const wrongCode = await c.request('POST', '/api/me/two-factor/disable', { currentPassword: STRONG_PASSWORD, code: '000000' });
      expect(wrongCode.statusCode).toBe(400);
      expect(errorOf(wrongCode)).toEqual({ code: 'invalid_code', message: 'Invalid authentication code' });
      expect((await c.request('GET', '/api/me')).json().twoFactorEnabled).toBe(true);

      const res = await c.request('POST', '/api/me/two-factor/disable', { currentPassword: STRONG_PASSWORD, code: totp(account.secret, clock) });
      expect(res.statusCode).toBe(204);
      expect((await c.request('GET', '/api/me')).json().twoFactorEnabled).toBe(false);
      expect((await c.request('GET', '/api/me/two-factor')).json()).toEqual({ enabled: false, recoveryCodesRemaining: 0 });
      const [row] = await t.database.db.select().from(users).where(eq(users.id, account.userId));
      expect(row).toMatchObject({ totpEnabled: false, totpSecretEnc: null, totpLastStep: null });
      expect(await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, account.userId))).toHaveLength(0);
      expect((await auditEvents(account.userId)).map((e) => e.event)).toContain('two_factor_disabled');

      const login = await loginVia(client(t.app, freshIp()), account.email);
      expect(login.json()).toMatchObject({ email: account.email });
      expect(sessionCookieOf(login)).toBeDefined();
      const again = await c.request('POST', '/api/me/two-factor/disable', { currentPassword: STRONG_PASSWORD, code: '000000' });
      expect(errorOf(again).code).toBe('two_factor_not_enabled');
    });

    it('disable also takes a recovery code', async () => {
      const account = await accountWithTwoFactor('disable-rc');
      const res = await account.browser.request('POST', '/api/me/two-factor/disable', { currentPassword: STRONG_PASSWORD, code: account.codes[0] });
      expect(res.statusCode).toBe(204);
    });

    it('a pending sign-in challenge dies when two-factor is turned off', async () => {
      const account = await accountWithTwoFactor('disable-challenge');
      const { c, challengeId } = await challengeFor(account);
      await account.browser.request('POST', '/api/me/two-factor/disable', { currentPassword: STRONG_PASSWORD, code: account.codes[1] });
      advance(STEP_MS);
      expect(errorOf(await secondStep(c, challengeId, totp(account.secret, clock))).code).toBe('two_factor_challenge_expired');
    });

    it('new recovery codes need the password and replace the old ones', async () => {
      const account = await accountWithTwoFactor('regen');
      const c = account.browser;
      const wrong = await c.request('POST', '/api/me/two-factor/recovery-codes', { currentPassword: 'Not-The-Pass-1' });
      expect(wrong.statusCode).toBe(400);
      const res = await c.request('POST', '/api/me/two-factor/recovery-codes', { currentPassword: STRONG_PASSWORD });
      expect(res.statusCode).toBe(200);
      const fresh: string[] = res.json().recoveryCodes;
      expect(fresh).toHaveLength(10);
      expect(fresh.some((code) => account.codes.includes(code))).toBe(false);
      expect((await auditEvents(account.userId)).map((e) => e.event)).toContain('recovery_codes_regenerated');

      const old = await challengeFor(account);
      expect(errorOf(await secondStep(old.c, old.challengeId, account.codes[0]!)).code).toBe('invalid_code');
      expect((await secondStep(old.c, old.challengeId, fresh[0]!)).statusCode).toBe(200);

      const visitor = client(t.app, freshIp());
      await registerVia(visitor, freshEmail('regen-off'));
      const off = await visitor.request('POST', '/api/me/two-factor/recovery-codes', { currentPassword: STRONG_PASSWORD });
      expect(off.statusCode).toBe(409);
      expect(errorOf(off).code).toBe('two_factor_not_enabled');
    });
  });
});
