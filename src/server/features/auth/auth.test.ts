import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import {
  OTHER_STRONG_PASSWORD,
  STRONG_PASSWORD,
  client,
  loginVia,
  registerVia,
  sessionCookieOf,
} from '../../../../tests/helpers/auth-client';
import { auditLog, outbox, passwordResetTokens, payoutMethods, sessions, users } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { AUTH_RATE_LIMITS } from './limits';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

let ipCounter = 0;
/** Every test gets its own client address, so per-IP limits of one test never touch another. */
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
let emailCounter = 0;
const freshEmail = (label = 'user') => `${label}-${++emailCounter}@example.com`;

/** The error's code and message (validation errors also carry per-field details). */
function errorOf(res: { json(): unknown }) {
  const { code, message } = (res.json() as { error: { code: string; message: string } }).error;
  return { code, message };
}

function tokenFromMail(text: string): string {
  const match = /reset-password\/confirm\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link in: ${text}`);
  return match[1];
}

describe('accounts: registration, sign-in, sessions, reset', () => {
  let t: TestApp;
  // A clock the tests move by hand (idle timeout, expiry, rate-limit windows).
  let clock = new Date('2026-03-02T12:00:00.000Z');
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { APP_URL: 'https://payweave.test' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function lastResetMailTo(email: string) {
    const rows = await t.database.db.select().from(outbox).where(eq(outbox.toAddress, email));
    const resets = rows.filter((r) => r.subject === 'Reset your PayWeave password');
    return resets.at(-1);
  }

  describe('validation messages (docs/rules.md#messages)', () => {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['register', '/api/auth/register', { password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, acceptTerms: true }, 'Email is required'],
      ['register', '/api/auth/register', { email: '   ', password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, acceptTerms: true }, 'Email is required'],
      ['register', '/api/auth/register', { email: 'not-an-email', password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, acceptTerms: true }, 'Invalid email address'],
      ['register', '/api/auth/register', { email: 'a@example.com', confirmPassword: STRONG_PASSWORD, acceptTerms: true }, 'Password is required'],
      ['register', '/api/auth/register', { email: 'a@example.com', password: '', confirmPassword: '', acceptTerms: true }, 'Password is required'],
      ['register', '/api/auth/register', { email: 'a@example.com', password: 'Ab1', confirmPassword: 'Ab1', acceptTerms: true }, 'Password must be at least 8 characters'],
      [
        'register',
        '/api/auth/register',
        { email: 'a@example.com', password: 'alllowercase1', confirmPassword: 'alllowercase1', acceptTerms: true },
        'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      ],
      ['register', '/api/auth/register', { email: 'a@example.com', password: 'Password1', confirmPassword: 'Password1', acceptTerms: true }, 'This password is too common. Please choose a less predictable one.'],
      ['register', '/api/auth/register', { email: 'a@example.com', password: STRONG_PASSWORD, acceptTerms: true }, 'Please confirm your password'],
      ['register', '/api/auth/register', { email: 'a@example.com', password: STRONG_PASSWORD, confirmPassword: 'Different-Pass-1', acceptTerms: true }, 'Passwords must match'],
      ['register', '/api/auth/register', { email: 'a@example.com', password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, acceptTerms: false }, 'You must accept the Terms of Service to continue'],
      ['register', '/api/auth/register', { email: 'a@example.com', password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD }, 'You must accept the Terms of Service to continue'],
      ['login', '/api/auth/login', { password: 'whatever' }, 'Email is required'],
      ['login', '/api/auth/login', { email: 'nope', password: 'whatever' }, 'Invalid email address'],
      ['login', '/api/auth/login', { email: 'a@example.com', password: '' }, 'Password is required'],
      ['reset', '/api/auth/password-reset', {}, 'Email is required'],
      ['reset', '/api/auth/password-reset', { email: 'a@' }, 'Invalid email address'],
      ['reset confirm', '/api/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'weak' }, 'Password must be at least 8 characters'],
    ];

    it.each(cases)('%s answers %j with the spec message: %s', async (_name, url, body, message) => {
      const c = client(t.app, freshIp());
      const res = await c.request('POST', url, body);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ code: 'validation_error', message });
    });

    it('password change: the rule reads "New password does not meet all requirements"', async () => {
      const c = client(t.app, freshIp());
      await registerVia(c, freshEmail());
      for (const newPassword of ['short1A', 'nouppercase123', 'NOLOWERCASE123', 'NoDigitsHere']) {
        const res = await c.request('PUT', '/api/me/password', { currentPassword: STRONG_PASSWORD, newPassword });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe('New password does not meet all requirements');
      }
      const common = await c.request('PUT', '/api/me/password', { currentPassword: STRONG_PASSWORD, newPassword: 'Welcome123' });
      expect(errorOf(common).message).toBe('This password is too common. Please choose a less predictable one.');
      const missing = await c.request('PUT', '/api/me/password', { newPassword: OTHER_STRONG_PASSWORD });
      expect(errorOf(missing).message).toBe('Current password is required');
    });

    it('a 128-character password is kept whole; 129 characters are refused, never truncated', async () => {
      const c = client(t.app, freshIp());
      const email = freshEmail('long');
      const long = `Aa1${'x'.repeat(125)}`;
      expect(long).toHaveLength(128);
      expect((await registerVia(c, email, long)).statusCode).toBe(201);
      // The same first 128 characters plus one more: had the hash truncated, this would sign in.
      expect((await loginVia(client(t.app, freshIp()), email, `${long}y`)).statusCode).toBe(401);
      expect((await loginVia(client(t.app, freshIp()), email, long)).statusCode).toBe(200);
      const tooLong = await registerVia(client(t.app, freshIp()), freshEmail(), `${long}y`);
      expect(errorOf(tooLong).message).toBe('Password must be at most 128 characters');
    });
  });

  describe('registration', () => {
    it('creates the account and its docs/rules.md#registration profile with starting values, signs in, answers 201', async () => {
      const c = client(t.app, freshIp());
      const res = await registerVia(c, '  New.Person@Example.COM ');
      expect(res.statusCode).toBe(201);
      const profile = res.json();
      expect(profile).toMatchObject({
        email: 'new.person@example.com',
        createdAt: clock.toISOString(),
        lastReset: clock.toISOString(),
        subscription: 'free',
        billingCycle: null,
        subscriptionPriceCents: 0,
        subscriptionUpdated: null,
        currentSubscriptionStart: null,
        subscriptionLastCanceledAt: null,
        cancelAtPeriodEnd: false,
        loyaltyDiscountMonths: 0,
        boostsUsed: 0,
        boostsAvailable: 0,
        combineTotal: 0,
        promo50offFirstYear: false,
        promoStart: null,
        promoEnd: null,
        promoActive: false,
        preferredPayout: null,
        payoutMethods: [],
        twoFactorEnabled: false,
        simulated: true,
        testSource: 'MVP-Demo',
        environment: 'test',
      });
      expect(c.cookie).toBeDefined();
      const me = await c.request('GET', '/api/me');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual(profile);
    });

    it('refuses a duplicate e-mail, whatever its case and spaces', async () => {
      const email = freshEmail('dup');
      expect((await registerVia(client(t.app, freshIp()), email)).statusCode).toBe(201);
      const again = await registerVia(client(t.app, freshIp()), `  ${email.toUpperCase()} `);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again)).toEqual({ code: 'email_taken', message: 'An account with this email already exists.' });
      expect(sessionCookieOf(again)).toBeUndefined();
    });

    it('two simultaneous registrations of one e-mail: exactly one account', async () => {
      const email = freshEmail('race');
      const answers = await Promise.all([registerVia(client(t.app, freshIp()), email), registerVia(client(t.app, freshIp()), email)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const rows = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(rows).toHaveLength(1);
    });

    it('stores an argon2id hash with m=19456, t=2, p=1, never the password', async () => {
      const email = freshEmail('hash');
      await registerVia(client(t.app, freshIp()), email);
      const [row] = await t.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email));
      expect(row?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row?.hash).not.toContain(STRONG_PASSWORD);
    });

    it('live mode creates profiles without the demo flags', async () => {
      const live = await createTestApp({ env: { DEMO_MODE: 'false' }, database: t.database });
      try {
        const res = await registerVia(client(live.app, freshIp()), freshEmail('live'));
        expect(res.json()).toMatchObject({ simulated: false, testSource: '', environment: 'production' });
      } finally {
        await live.close();
      }
    });
  });

  describe('sign-in', () => {
    it('a wrong password and an unknown e-mail get the same answer, which names neither field', async () => {
      const email = freshEmail('login');
      await registerVia(client(t.app, freshIp()), email);
      const wrong = await loginVia(client(t.app, freshIp()), email, 'Wrong-Password-1');
      const unknown = await loginVia(client(t.app, freshIp()), freshEmail('nobody'), 'Wrong-Password-1');
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'invalid_credentials', message: 'Invalid email or password.' } });
        expect(sessionCookieOf(res)).toBeUndefined();
      }
      const events = await t.database.db.select().from(auditLog).where(eq(auditLog.event, 'sign_in_failed'));
      expect(events.length).toBeGreaterThanOrEqual(2);
    });

    it('signs in with any case of the e-mail and records the sign-in', async () => {
      const email = freshEmail('case');
      await registerVia(client(t.app, freshIp()), email);
      const c = client(t.app, freshIp());
      const res = await loginVia(c, email.toUpperCase());
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email });
      const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
      const events = await t.database.db.select().from(auditLog).where(and(eq(auditLog.userId, user!.id), eq(auditLog.event, 'sign_in')));
      expect(events).toHaveLength(1);
      expect(events[0]?.ip).toBe(c.ip);
    });

    // The sign-in's writes and its profile are one statement (sign-in-statements.ts): the answer is
    // the profile GET /api/me gives, and the rows are those createSession and audit() write.
    it('answers the profile /api/me gives, payout methods included, and stores the session and its audit row', async () => {
      const email = freshEmail('profile');
      await registerVia(client(t.app, freshIp()), email);
      const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
      await t.database.db.insert(payoutMethods).values([
        { userId: user!.id, method: 'paypal', status: 'active', lastUsed: new Date('2026-02-01T10:20:30.456Z'), createdAt: new Date('2026-01-02T00:00:00Z'), detail: 'ada@example.com', destinationRef: 'demo_dest_paypal' },
        { userId: user!.id, method: 'ach', status: 'inactive', lastUsed: null, createdAt: new Date('2026-01-01T00:00:00Z') },
      ]);
      const c = client(t.app, freshIp());
      const res = await c.request('POST', '/api/auth/login', { email, password: STRONG_PASSWORD, rememberMe: true }, { 'user-agent': 'x'.repeat(400) });
      expect(res.statusCode).toBe(200);
      const me = await c.request('GET', '/api/me');
      expect(res.json()).toEqual(me.json());
      expect(res.json().payoutMethods).toEqual([
        // Decision 172: a method without a destination registered with the payout provider needs its details again.
        { method: 'ach', status: 'inactive', lastUsed: null, detail: null, needsDetails: true },
        { method: 'paypal', status: 'active', lastUsed: '2026-02-01T10:20:30.456Z', detail: 'ada@example.com', needsDetails: false },
      ]);
      const [session] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(c.cookie!)));
      expect(session).toMatchObject({
        userId: user!.id,
        remember: true,
        createdAt: clock,
        lastSeenAt: clock,
        reauthenticatedAt: clock,
        expiresAt: new Date(clock.getTime() + 30 * DAY_MS),
        ip: c.ip,
        userAgent: 'x'.repeat(300),
      });
      const [event] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.userId, user!.id), eq(auditLog.event, 'sign_in')));
      expect(event).toMatchObject({ ip: c.ip, details: { rememberMe: true }, createdAt: clock });
    });

    it('rotates the session at sign-in: the cookie held before no longer works', async () => {
      const email = freshEmail('rotate');
      const c = client(t.app, freshIp());
      await registerVia(c, email);
      const before = c.cookie;
      await loginVia(c, email);
      expect(c.cookie).toBeDefined();
      expect(c.cookie).not.toBe(before);
      const stale = client(t.app, freshIp());
      stale.cookie = before;
      expect((await stale.request('GET', '/api/me')).statusCode).toBe(401);
      expect((await c.request('GET', '/api/me')).statusCode).toBe(200);
    });
  });

  describe('session cookie and lifetime', () => {
    it('is HttpOnly, SameSite=Lax, Path=/, not Secure over http, and a browser-session cookie without remember-me', async () => {
      const email = freshEmail('cookie');
      const c = client(t.app, freshIp());
      const res = await registerVia(c, email);
      const cookie = sessionCookieOf(res);
      expect(cookie).toMatchObject({ name: 'pw_session', httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.maxAge).toBeUndefined();
      expect(cookie?.expires).toBeUndefined();
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const raw = String(res.headers['set-cookie']);
      expect(raw).toContain('HttpOnly');
      expect(raw).toContain('SameSite=Lax');
      // Only the hash is stored.
      const stored = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(cookie!.value)));
      expect(stored).toHaveLength(1);
      const byToken = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, cookie!.value));
      expect(byToken).toHaveLength(0);
    });

    it('remember-me lasts 30 days', async () => {
      const email = freshEmail('remember');
      await registerVia(client(t.app, freshIp()), email);
      const c = client(t.app, freshIp());
      const res = await loginVia(c, email, STRONG_PASSWORD, true);
      expect(sessionCookieOf(res)?.maxAge).toBe(30 * 24 * 60 * 60);
      advance(13 * HOUR_MS); // idle longer than 12 h: a remembered session survives
      expect((await c.request('GET', '/api/me')).statusCode).toBe(200);
      advance(30 * DAY_MS);
      const expired = await c.request('GET', '/api/me');
      expect(expired.statusCode).toBe(401);
      expect(errorOf(expired)).toEqual({ code: 'unauthorized', message: 'Please sign in to continue.' });
    });

    it('without remember-me, 12 hours without a request end the session; activity keeps it alive', async () => {
      const email = freshEmail('idle');
      const c = client(t.app, freshIp());
      await registerVia(c, email);
      for (let i = 0; i < 3; i += 1) {
        advance(11 * HOUR_MS);
        expect((await c.request('GET', '/api/me')).statusCode).toBe(200);
      }
      advance(12 * HOUR_MS);
      expect((await c.request('GET', '/api/me')).statusCode).toBe(401);
    });

    it('last_seen_at is written at most once a minute', async () => {
      const c = client(t.app, freshIp());
      const res = await registerVia(c, freshEmail('seen'));
      const hash = hashToken(sessionCookieOf(res)!.value);
      const seen = async () => (await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hash)))[0]?.lastSeenAt.getTime();
      const start = await seen();
      advance(30_000);
      await c.request('GET', '/api/me');
      expect(await seen()).toBe(start);
      advance(31_000);
      await c.request('GET', '/api/me');
      expect(await seen()).toBe(clock.getTime());
    });

    it('is Secure when the app is served over https', async () => {
      const secure = await createTestApp({ env: { TRUST_PROXY: 'true' }, database: t.database });
      try {
        const res = await secure.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', host: 'payweave.test', origin: 'https://payweave.test' },
          payload: { email: freshEmail('https'), password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, acceptTerms: true },
        });
        expect(res.statusCode).toBe(201);
        expect(sessionCookieOf(res)?.secure).toBe(true);
      } finally {
        await secure.close();
      }
    });

    it('a malformed or unknown cookie means signed out, and is cleared', async () => {
      for (const value of ['garbage', 'A'.repeat(43)]) {
        const c = client(t.app, freshIp());
        c.cookie = value;
        const res = await c.request('GET', '/api/me');
        expect(res.statusCode).toBe(401);
        expect(sessionCookieOf(res)?.value).toBe('');
      }
    });
  });

  describe('logout', () => {
    it('deletes the session server-side and clears the cookie', async () => {
      const c = client(t.app, freshIp());
      const res = await registerVia(c, freshEmail('logout'));
      const token = sessionCookieOf(res)!.value;
      const out = await c.request('POST', '/api/auth/logout');
      expect(out.statusCode).toBe(204);
      expect(sessionCookieOf(out)).toMatchObject({ value: '', path: '/' });
      expect(await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)))).toHaveLength(0);
      // Replaying the old cookie does not bring the session back.
      const replay = client(t.app, freshIp());
      replay.cookie = token;
      expect((await replay.request('GET', '/api/me')).statusCode).toBe(401);
    });

    it('answers 204 when already signed out', async () => {
      expect((await client(t.app, freshIp()).request('POST', '/api/auth/logout')).statusCode).toBe(204);
    });
  });

  describe('CSRF', () => {
    it('a cross-site POST is refused and changes nothing', async () => {
      const email = freshEmail('csrf');
      const c = client(t.app, freshIp());
      await registerVia(c, email);
      const logout = await c.request('POST', '/api/auth/logout', undefined, { origin: 'https://evil.example' });
      expect(logout.statusCode).toBe(403);
      expect(errorOf(logout).code).toBe('csrf_failed');
      expect((await c.request('GET', '/api/me')).statusCode).toBe(200);

      const change = await c.request(
        'PUT',
        '/api/me/email',
        { email: freshEmail('attacker'), currentPassword: STRONG_PASSWORD },
        { origin: 'null' },
      );
      expect(change.statusCode).toBe(403);
      const login = await c.request('POST', '/api/auth/login', { email, password: STRONG_PASSWORD }, { origin: 'https://evil.example' });
      expect(login.statusCode).toBe(403);
      const fetchSite = await c.request('POST', '/api/auth/logout', undefined, { origin: '', 'sec-fetch-site': 'cross-site' });
      expect(fetchSite.statusCode).toBe(403);
      expect((await c.request('GET', '/api/me')).json()).toMatchObject({ email });
    });

    it('a text/plain body (a cross-site "simple request") is refused', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ email: 'a@example.com', password: 'x' }),
      });
      expect(res.statusCode).toBe(415);
    });
  });

  describe('isolation between users', () => {
    it("user A's session only ever reads and changes user A", async () => {
      const a = client(t.app, freshIp());
      const b = client(t.app, freshIp());
      const emailA = freshEmail('alice');
      const emailB = freshEmail('bob');
      const profileA = (await registerVia(a, emailA)).json() as { id: string };
      const profileB = (await registerVia(b, emailB)).json() as { id: string };
      expect(profileA.id).not.toBe(profileB.id);

      const meA = await a.request('GET', '/api/me');
      expect(meA.json()).toMatchObject({ id: profileA.id, email: emailA });
      expect(JSON.stringify(meA.json())).not.toContain(emailB);
      // Headers naming B change nothing: the user comes from the session only; a query naming B
      // is an unknown parameter, refused.
      const sneaky = await a.request('GET', '/api/me', undefined, { 'x-user-id': profileB.id });
      expect(sneaky.json()).toMatchObject({ id: profileA.id });
      const sneakyQuery = await a.request('GET', `/api/me?userId=${profileB.id}`);
      expect(sneakyQuery.statusCode).toBe(400);
      expect(sneakyQuery.json().error.message).toBe('Unknown query parameter: userId.');

      // B's password does not work as A's current password, and A cannot take B's e-mail.
      const wrongPw = await a.request('PUT', '/api/me/email', { email: freshEmail('x'), currentPassword: OTHER_STRONG_PASSWORD });
      expect(wrongPw.statusCode).toBe(400);
      const take = await a.request('PUT', '/api/me/email', { email: emailB, currentPassword: STRONG_PASSWORD });
      expect(take.statusCode).toBe(409);
      expect((await b.request('GET', '/api/me')).json()).toMatchObject({ id: profileB.id, email: emailB });
    });

    it('signed out, the profile answers 401 in the error shape', async () => {
      const res = await client(t.app, freshIp()).request('GET', '/api/me');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'unauthorized', message: 'Please sign in to continue.' } });
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('e-mail and password change', () => {
    it('changes the e-mail with the current password; the old address is told', async () => {
      const c = client(t.app, freshIp());
      const oldEmail = freshEmail('old');
      await registerVia(c, oldEmail);
      const wrong = await c.request('PUT', '/api/me/email', { email: freshEmail(), currentPassword: 'Not-The-One-1' });
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong)).toEqual({ code: 'wrong_password', message: 'Your current password is incorrect.' });
      // The address it already has, however typed: said so, and nothing is changed or sent.
      const same = await c.request('PUT', '/api/me/email', { email: ` ${oldEmail.toUpperCase()} `, currentPassword: STRONG_PASSWORD });
      expect(same.statusCode).toBe(400);
      expect(errorOf(same)).toEqual({ code: 'validation_error', message: 'That is already your email address.' });
      expect(await t.database.db.select().from(outbox).where(eq(outbox.toAddress, oldEmail))).toEqual([]);
      const newEmail = freshEmail('new');
      const res = await c.request('PUT', '/api/me/email', { email: ` ${newEmail.toUpperCase()}`, currentPassword: STRONG_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: newEmail, lastUpdated: clock.toISOString() });
      expect((await loginVia(client(t.app, freshIp()), newEmail)).statusCode).toBe(200);
      expect((await loginVia(client(t.app, freshIp()), oldEmail)).statusCode).toBe(401);
      const notices = await t.database.db.select().from(outbox).where(eq(outbox.toAddress, oldEmail));
      expect(notices.map((n) => n.subject)).toContain('Your PayWeave e-mail address was changed');
      const [user] = await t.database.db.select().from(users).where(eq(users.email, newEmail));
      const events = await t.database.db.select().from(auditLog).where(and(eq(auditLog.userId, user!.id), eq(auditLog.event, 'email_changed')));
      expect(events).toHaveLength(1);
    });

    it('a password change ends every other session and keeps this one', async () => {
      const email = freshEmail('pwchange');
      const here = client(t.app, freshIp());
      await registerVia(here, email);
      const laptop = client(t.app, freshIp());
      const phone = client(t.app, freshIp());
      await loginVia(laptop, email);
      await loginVia(phone, email, STRONG_PASSWORD, true);

      const wrong = await here.request('PUT', '/api/me/password', { currentPassword: 'Nope-Nope-1', newPassword: OTHER_STRONG_PASSWORD });
      expect(errorOf(wrong)).toEqual({ code: 'wrong_password', message: 'Your current password is incorrect.' });
      expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);

      const res = await here.request('PUT', '/api/me/password', { currentPassword: STRONG_PASSWORD, newPassword: OTHER_STRONG_PASSWORD });
      expect(res.statusCode).toBe(204);
      expect((await here.request('GET', '/api/me')).statusCode).toBe(200);
      expect((await laptop.request('GET', '/api/me')).statusCode).toBe(401);
      expect((await phone.request('GET', '/api/me')).statusCode).toBe(401);
      expect((await loginVia(client(t.app, freshIp()), email)).statusCode).toBe(401);
      expect((await loginVia(client(t.app, freshIp()), email, OTHER_STRONG_PASSWORD)).statusCode).toBe(200);
      const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
      const events = await t.database.db.select().from(auditLog).where(eq(auditLog.userId, user!.id));
      expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['password_change_failed', 'password_changed']));
    });

    it('current-password checks: failures are limited per account and IP, and a right one resets them', async () => {
      const c = client(t.app, freshIp());
      await registerVia(c, freshEmail('guess'));
      const limit = AUTH_RATE_LIMITS.passwordCheck.failuresPerAccountAndIp;
      for (let i = 0; i < limit - 1; i += 1) {
        expect((await c.request('POST', '/api/auth/reauthenticate', { password: `Guess-${i}-Aa` })).statusCode).toBe(400);
      }
      expect((await c.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
      for (let i = 0; i < limit; i += 1) {
        expect((await c.request('POST', '/api/auth/reauthenticate', { password: `Guess-${i}-Bb` })).statusCode).toBe(400);
      }
      const blocked = await c.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('re-authentication', () => {
    it('records when the password was entered again in this session', async () => {
      const c = client(t.app, freshIp());
      const res = await registerVia(c, freshEmail('reauth'));
      const hash = hashToken(sessionCookieOf(res)!.value);
      advance(10 * MINUTE_MS);
      expect((await c.request('POST', '/api/auth/reauthenticate', { password: 'Wrong-Pass-1' })).json()).toEqual({
        error: { code: 'wrong_password', message: 'That password is incorrect. Please try again.' },
      });
      const reauthenticated = await c.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD });
      expect(reauthenticated.statusCode).toBe(204);
      // The session was rotated (docs/rules.md#sessions): the old one is gone, the new one has the mark.
      expect(await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hash))).toEqual([]);
      const [row] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(sessionCookieOf(reauthenticated)!.value)));
      expect(row?.reauthenticatedAt?.getTime()).toBe(clock.getTime());
      expect((await client(t.app, freshIp()).request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(401);
    });
  });

  describe('rate limits (429)', () => {
    it('sign-in failures per e-mail and IP: the attempt after the limit is refused with a clear message; the owner elsewhere is not', async () => {
      const email = freshEmail('brute');
      await registerVia(client(t.app, freshIp()), email);
      const limit = AUTH_RATE_LIMITS.login.failuresPerAccountAndIp;
      const guesser = client(t.app, freshIp());
      for (let i = 0; i < limit; i += 1) {
        expect((await loginVia(guesser, email, `Wrong-Guess-${i}`)).statusCode).toBe(401);
      }
      const blocked = await loginVia(guesser, email);
      expect(blocked.statusCode).toBe(429);
      // The lock-out lasts the failures' 15-minute window, and the message says so (not "a minute").
      expect(blocked.json()).toEqual({ error: { code: 'rate_limited', message: 'Too many attempts. Please wait 15 minutes and try again.' } });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect((await loginVia(client(t.app, freshIp()), email)).statusCode).toBe(200);
    });

    it('sign-in per IP', async () => {
      const c = client(t.app, freshIp());
      const limit = AUTH_RATE_LIMITS.login.perIp;
      for (let i = 0; i < limit; i += 1) {
        expect((await loginVia(c, freshEmail('spray'), 'Wrong-Guess-1')).statusCode).toBe(401);
      }
      expect((await loginVia(c, freshEmail('spray'), 'Wrong-Guess-1')).statusCode).toBe(429);
      expect((await loginVia(client(t.app, freshIp()), freshEmail('spray'), 'Wrong-Guess-1')).statusCode).toBe(401);
    });

    it('registration per IP', async () => {
      const c = client(t.app, freshIp());
      const limit = AUTH_RATE_LIMITS.register.perIp;
      // Invalid-password registrations are refused by validation before counting; these are valid.
      for (let i = 0; i < limit; i += 1) {
        expect((await registerVia(c, freshEmail('bulk'))).statusCode).toBe(201);
      }
      expect((await registerVia(c, freshEmail('bulk'))).statusCode).toBe(429);
    });

    it('reset per e-mail answers 429 for unknown e-mails exactly as for known ones', async () => {
      const known = freshEmail('reset-limit');
      await registerVia(client(t.app, freshIp()), known);
      const unknown = freshEmail('reset-limit-unknown');
      const answers: Record<string, number[]> = { [known]: [], [unknown]: [] };
      for (const email of [known, unknown]) {
        for (let i = 0; i <= AUTH_RATE_LIMITS.passwordReset.perEmail; i += 1) {
          answers[email]!.push((await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email })).statusCode);
        }
      }
      expect(answers[known]).toEqual(answers[unknown]);
      expect(answers[known]?.at(-1)).toBe(429);
    });
  });

  describe('password reset', () => {
    it('an unknown e-mail gets exactly the answer a known one gets, and no e-mail is sent', async () => {
      const known = freshEmail('known');
      await registerVia(client(t.app, freshIp()), known);
      const unknown = freshEmail('unknown');
      const a = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email: known });
      const b = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email: unknown });
      expect(a.statusCode).toBe(202);
      expect(b.statusCode).toBe(202);
      expect(a.body).toBe(b.body);
      expect(a.json()).toEqual({ message: 'If an account exists for that email, we have sent a link to reset the password.' });
      const strip = (h: Record<string, unknown>) => Object.keys(h).filter((k) => !['x-request-id', 'date', 'content-length'].includes(k)).sort();
      expect(strip(a.headers)).toEqual(strip(b.headers));
      expect(await lastResetMailTo(known)).toBeDefined();
      expect(await lastResetMailTo(unknown)).toBeUndefined();
    });

    it('the link holds a single-use token valid one hour, stored hashed, and confirming ends every session', async () => {
      const email = freshEmail('reset');
      const phone = client(t.app, freshIp());
      await registerVia(phone, email);
      const remembered = client(t.app, freshIp());
      await loginVia(remembered, email, STRONG_PASSWORD, true);

      await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email: email.toUpperCase() });
      const mail = await lastResetMailTo(email);
      expect(mail?.status).toBe('stored');
      expect(mail?.textBody).toContain('https://payweave.test/reset-password/confirm?token=');
      const token = tokenFromMail(mail!.textBody);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [stored] = await t.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, hashToken(token)));
      expect(stored?.expiresAt.getTime()).toBe(clock.getTime() + HOUR_MS);
      expect(await t.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, token))).toHaveLength(0);

      const weak = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset/confirm', { token, password: 'password' });
      expect(errorOf(weak).message).toBe('Password must contain at least one uppercase letter, one lowercase letter, and one number');

      const ok = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset/confirm', { token, password: OTHER_STRONG_PASSWORD });
      expect(ok.statusCode).toBe(204);
      expect((await phone.request('GET', '/api/me')).statusCode).toBe(401);
      expect((await remembered.request('GET', '/api/me')).statusCode).toBe(401);
      const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(0);
      expect(user?.lastReset?.getTime()).toBe(clock.getTime());

      const reused = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset/confirm', { token, password: 'Third-Password-7' });
      expect(reused.statusCode).toBe(400);
      expect(errorOf(reused)).toEqual({ code: 'invalid_token', message: 'This reset link is invalid or has expired. Please request a new one.' });
      expect((await loginVia(client(t.app, freshIp()), email, OTHER_STRONG_PASSWORD)).statusCode).toBe(200);
      expect((await loginVia(client(t.app, freshIp()), email, 'Third-Password-7')).statusCode).toBe(401);
    });

    it('an expired token is refused', async () => {
      const email = freshEmail('expired');
      await registerVia(client(t.app, freshIp()), email);
      await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email });
      const token = tokenFromMail((await lastResetMailTo(email))!.textBody);
      advance(HOUR_MS + 1);
      const res = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset/confirm', { token, password: OTHER_STRONG_PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('invalid_token');
      expect((await loginVia(client(t.app, freshIp()), email)).statusCode).toBe(200);
    });

    it('a made-up token is refused', async () => {
      const res = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset/confirm', { token: 'B'.repeat(43), password: OTHER_STRONG_PASSWORD });
      expect(errorOf(res).code).toBe('invalid_token');
    });

    it('a password change revokes reset links sent before it', async () => {
      const email = freshEmail('revoke');
      const c = client(t.app, freshIp());
      await registerVia(c, email);
      await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email });
      const token = tokenFromMail((await lastResetMailTo(email))!.textBody);
      await c.request('PUT', '/api/me/password', { currentPassword: STRONG_PASSWORD, newPassword: OTHER_STRONG_PASSWORD });
      const res = await client(t.app, freshIp()).request('POST', '/api/auth/password-reset/confirm', { token, password: 'Third-Password-7' });
      expect(errorOf(res).code).toBe('invalid_token');
    });
  });

  describe('demo mailbox', () => {
    it('lists stored e-mails with the reset link in demo mode', async () => {
      const email = freshEmail('mailbox');
      await registerVia(client(t.app, freshIp()), email);
      await client(t.app, freshIp()).request('POST', '/api/auth/password-reset', { email });
      const res = await client(t.app, '127.0.0.1').request('GET', '/api/dev/mailbox');
      expect(res.statusCode).toBe(200);
      const { messages } = res.json() as { messages: Array<{ to: string; subject: string; text: string }> };
      const mine = messages.find((m) => m.to === email);
      expect(mine?.subject).toBe('Reset your PayWeave password');
      expect(mine?.text).toMatch(/reset-password\/confirm\?token=[A-Za-z0-9_-]{43}/);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('does not exist outside demo mode', async () => {
      const live = await createTestApp({ env: { DEMO_MODE: 'false' }, database: t.database });
      try {
        const res = await live.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
        expect(res.statusCode).toBe(404);
      } finally {
        await live.close();
      }
    });
  });

  it('the OpenAPI document lists the account endpoints', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/logout',
        '/api/auth/password-reset',
        '/api/auth/password-reset/confirm',
        '/api/auth/reauthenticate',
        '/api/me',
        '/api/me/email',
        '/api/me/password',
      ]),
    );
  });
});
