import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TEST_CARD_DATA_KEY, type TestApp } from '../../../../tests/helpers/test-app';
import { STRONG_PASSWORD } from '../../../../tests/helpers/auth-client';
import { insertFundedCard } from '../../../../tests/helpers/fixtures';
import { addPasskeyVia, jarClient, registerWithJar, signInWithPasskeyVia, type JarClient } from '../../../../tests/helpers/passkey-client';
import { SoftAuthenticator } from '../../../../tests/helpers/soft-authenticator';
import { MAX_PASSKEYS_PER_ACCOUNT, PASSKEY_MESSAGES } from '../../../contracts/passkeys';
import { auditLog, cards, passkeyChallenges, passkeys, sessions, users } from '../../db/schema';
import { encryptCardSecret } from '../../lib/card-crypto';
import { base32Decode, totp } from '../../lib/totp';
import { hashToken } from '../../lib/tokens';
import { PASSKEY_CHALLENGE_COOKIE, PASSKEY_CHALLENGE_VALID_MS } from './passkey-challenges';

const APP_URL = 'https://payweave.test';
const MINUTE_MS = 60_000;
const STEP_MS = 30_000;

let ipCounter = 0;
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const freshEmail = (label = 'passkey') => `${label}-${randomUUID()}@example.com`;

function errorOf(res: { json(): unknown }) {
  return (res.json() as { error: { code: string; message: string } }).error;
}

describe('passkeys (WebAuthn ceremonies against @simplewebauthn/server)', () => {
  let t: TestApp;
  let clock = new Date(Math.ceil(Date.parse('2026-04-01T09:00:00.000Z') / STEP_MS) * STEP_MS);
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { APP_URL } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => advance(MINUTE_MS));

  type Account = { email: string; userId: string; browser: JarClient };

  async function account(label?: string): Promise<Account> {
    const browser = jarClient(t.app, freshIp());
    const email = freshEmail(label);
    const res = await registerWithJar(browser, email);
    expect(res.statusCode, res.body).toBe(201);
    return { email, userId: res.json().id, browser };
  }

  async function accountWithPasskey(label?: string) {
    const owner = await account(label);
    const authenticator = new SoftAuthenticator(APP_URL);
    const added = await addPasskeyVia(owner.browser, authenticator);
    expect(added.statusCode, added.body).toBe(201);
    return { ...owner, authenticator, passkeyId: added.json().id as string };
  }

  async function events(userId: string) {
    return (await t.database.db.select().from(auditLog).where(eq(auditLog.userId, userId))).map((row) => ({ event: row.event, details: row.details as Record<string, unknown> }));
  }

  describe('adding a passkey in Settings → Security', () => {
    it('needs a session, then the password entered within 5 minutes', async () => {
      const visitor = jarClient(t.app, freshIp());
      expect((await visitor.request('POST', '/api/me/passkeys/options')).statusCode).toBe(401);
      expect((await visitor.request('GET', '/api/me/passkeys')).statusCode).toBe(401);

      const owner = await account();
      advance(5 * MINUTE_MS + 1);
      const late = await owner.browser.request('POST', '/api/me/passkeys/options');
      expect(late.statusCode).toBe(403);
      expect(errorOf(late).code).toBe('reauthentication_required');
      expect((await owner.browser.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
      expect((await addPasskeyVia(owner.browser, new SoftAuthenticator(APP_URL))).statusCode).toBe(201);
    });

    it('asks for a discoverable credential with user verification, for this site, excluding the passkeys already added', async () => {
      const { browser, authenticator, userId } = await accountWithPasskey();
      const options = (await browser.request('POST', '/api/me/passkeys/options')).json();
      expect(options.rp).toEqual({ id: 'payweave.test', name: 'PayWeave' });
      expect(Buffer.from(options.user.id, 'base64url').toString('hex')).toBe(userId.replace(/-/g, ''));
      expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
      expect(options.attestation).toBe('none');
      expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id]);
      expect(Buffer.from(options.challenge, 'base64url')).toHaveLength(32);
    });

    it('stores the public key, counter and backup flags (no secret), lists it by name, and audits it', async () => {
      const owner = await account();
      const authenticator = new SoftAuthenticator(APP_URL, { backedUp: true });
      const added = await addPasskeyVia(owner.browser, authenticator, '  Work laptop  ');
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toEqual({ id: expect.any(String), name: 'Work laptop', createdAt: clock.toISOString(), lastUsedAt: null, backedUp: true });

      const [row] = await t.database.db.select().from(passkeys).where(eq(passkeys.userId, owner.userId));
      expect(row).toMatchObject({ credentialId: authenticator.id, counter: 0, backedUp: true, deviceType: 'multiDevice', transports: ['internal'], name: 'Work laptop' });
      expect(Buffer.from(row!.publicKey, 'base64url').length).toBeGreaterThan(64);

      const list = await owner.browser.request('GET', '/api/me/passkeys');
      expect(list.json()).toEqual({ passkeys: [added.json()] });
      expect(list.headers['cache-control']).toContain('no-store');
      expect(await events(owner.userId)).toContainEqual({ event: 'passkey_added', details: { passkeyId: row!.id, backedUp: true } });
      // The challenge was spent.
      expect(await t.database.db.select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, owner.userId))).toEqual([]);
    });

    it('refuses an authenticator without user verification, a missing name, a duplicate, and an 11th passkey', async () => {
      const owner = await account();
      const noPin = await addPasskeyVia(owner.browser, new SoftAuthenticator(APP_URL, { userVerified: false }));
      expect(noPin.statusCode).toBe(400);
      expect(errorOf(noPin)).toEqual({ code: 'passkey_rejected', message: PASSKEY_MESSAGES.rejected });

      const options = (await owner.browser.request('POST', '/api/me/passkeys/options')).json();
      const unnamed = await owner.browser.request('POST', '/api/me/passkeys', { name: '   ', credential: new SoftAuthenticator(APP_URL).register(options) });
      expect(unnamed.statusCode).toBe(400);
      expect(errorOf(unnamed).message).toBe(PASSKEY_MESSAGES.nameRequired);

      const authenticator = new SoftAuthenticator(APP_URL);
      expect((await addPasskeyVia(owner.browser, authenticator)).statusCode).toBe(201);
      const twice = await addPasskeyVia(owner.browser, authenticator);
      expect(twice.statusCode).toBe(409);
      expect(errorOf(twice).code).toBe('passkey_already_registered');

      for (let i = 1; i < MAX_PASSKEYS_PER_ACCOUNT; i++) {
        if (i % 5 === 0) advance(MINUTE_MS); // the per-account limit on answers checked
        expect((await addPasskeyVia(owner.browser, new SoftAuthenticator(APP_URL), `Key ${i}`)).statusCode).toBe(201);
      }
      const eleventh = await owner.browser.request('POST', '/api/me/passkeys/options');
      expect(eleventh.statusCode).toBe(409);
      expect(errorOf(eleventh)).toEqual({ code: 'passkey_limit_reached', message: PASSKEY_MESSAGES.limitReached });
    });

    it('a challenge older than 5 minutes is refused', async () => {
      const owner = await account();
      const options = (await owner.browser.request('POST', '/api/me/passkeys/options')).json();
      advance(PASSKEY_CHALLENGE_VALID_MS + 1);
      // Still within the re-authentication window? No: re-enter the password, the challenge stays old.
      expect((await owner.browser.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
      const late = await owner.browser.request('POST', '/api/me/passkeys', { name: 'Late', credential: new SoftAuthenticator(APP_URL).register(options) });
      expect(late.statusCode).toBe(400);
      expect(errorOf(late)).toEqual({ code: 'passkey_challenge_expired', message: PASSKEY_MESSAGES.challengeExpired });
    });
  });

  describe('signing in with a passkey, without a password', () => {
    it('starts a new session (the previous one ends), records the use and audits the sign-in', async () => {
      const { userId, email, authenticator, passkeyId, browser } = await accountWithPasskey();
      const before = browser.session!;
      advance(MINUTE_MS);
      const options = await browser.request('POST', '/api/auth/passkey/options');
      expect(options.statusCode).toBe(200);
      expect(options.json().allowCredentials ?? []).toEqual([]); // usernameless: no account named
      expect(options.json().userVerification).toBe('required');
      const ceremonyCookie = options.cookies.find((c) => c.name === PASSKEY_CHALLENGE_COOKIE);
      expect(ceremonyCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });

      const signedIn = await browser.request('POST', '/api/auth/passkey', { credential: authenticator.authenticate(options.json()), rememberMe: true });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json()).toMatchObject({ id: userId, email });
      expect(browser.session).toBeDefined();
      expect(browser.session).not.toBe(before);
      expect(browser.cookies.has(PASSKEY_CHALLENGE_COOKIE)).toBe(false);
      // The old token is gone server-side: session rotation as for a password sign-in.
      expect(await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(before)))).toEqual([]);
      const [session] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(browser.session!)));
      expect(session).toMatchObject({ userId, remember: true });

      const [row] = await t.database.db.select().from(passkeys).where(eq(passkeys.id, passkeyId));
      expect(row).toMatchObject({ counter: 1, lastUsedAt: clock });
      expect((await browser.request('GET', '/api/me')).statusCode).toBe(200);
      expect(await events(userId)).toContainEqual({ event: 'sign_in', details: { rememberMe: true, method: 'passkey', passkeyId } });
    });

    it('works from a browser that had no session, and is enough on its own when two-factor sign-in is on (decision 090)', async () => {
      const owner = await accountWithPasskey();
      const setup = await owner.browser.request('POST', '/api/me/two-factor/setup');
      expect((await owner.browser.request('POST', '/api/me/two-factor/enable', { code: totp(base32Decode(setup.json().secret), clock) })).statusCode).toBe(200);

      const elsewhere = jarClient(t.app, freshIp());
      const signedIn = await signInWithPasskeyVia(elsewhere, owner.authenticator);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect((await elsewhere.request('GET', '/api/me')).json().email).toBe(owner.email);
    });

    it('an answer without the ceremony cookie is refused and starts no session', async () => {
      const { authenticator } = await accountWithPasskey();
      const browser = jarClient(t.app, freshIp());
      const options = (await browser.request('POST', '/api/auth/passkey/options')).json();
      browser.cookies.delete(PASSKEY_CHALLENGE_COOKIE);
      const res = await browser.request('POST', '/api/auth/passkey', { credential: authenticator.authenticate(options) });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('passkey_challenge_expired');
      expect(browser.session).toBeUndefined();
    });
  });

  describe('the passkey as the second factor of a password sign-in', () => {
    it('completes the step instead of a code, with the remember-me choice of the password step', async () => {
      const owner = await accountWithPasskey();
      const setup = await owner.browser.request('POST', '/api/me/two-factor/setup');
      expect((await owner.browser.request('POST', '/api/me/two-factor/enable', { code: totp(base32Decode(setup.json().secret), clock) })).statusCode).toBe(200);

      const browser = jarClient(t.app, freshIp());
      const password = await browser.request('POST', '/api/auth/login', { email: owner.email, password: STRONG_PASSWORD, rememberMe: true });
      expect(password.json()).toMatchObject({ twoFactorRequired: true, passkeyAvailable: true });
      const { challengeId } = password.json();

      const options = await browser.request('POST', '/api/auth/login/two-factor/passkey/options', { challengeId });
      expect(options.statusCode, options.body).toBe(200);
      expect(options.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([owner.authenticator.id]);
      const done = await browser.request('POST', '/api/auth/login/two-factor/passkey', { challengeId, credential: owner.authenticator.authenticate(options.json()) });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().email).toBe(owner.email);
      const [session] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(browser.session!)));
      expect(session).toMatchObject({ userId: owner.userId, remember: true });
      expect(await events(owner.userId)).toContainEqual({ event: 'sign_in', details: { rememberMe: true, secondFactor: 'passkey', passkeyId: owner.passkeyId } });

      // The password step is spent: the same challenge cannot start a second session.
      const again = await browser.request('POST', '/api/auth/login/two-factor/passkey/options', { challengeId });
      expect(again.statusCode).toBe(401);
      expect(errorOf(again).code).toBe('two_factor_challenge_expired');
    });

    it('an account without a passkey is told so, and its password step says none is available', async () => {
      const owner = await account();
      const setup = await owner.browser.request('POST', '/api/me/two-factor/setup');
      expect((await owner.browser.request('POST', '/api/me/two-factor/enable', { code: totp(base32Decode(setup.json().secret), clock) })).statusCode).toBe(200);
      const browser = jarClient(t.app, freshIp());
      const password = await browser.request('POST', '/api/auth/login', { email: owner.email, password: STRONG_PASSWORD });
      expect(password.json()).toEqual({ twoFactorRequired: true, challengeId: expect.any(String) });
      const options = await browser.request('POST', '/api/auth/login/two-factor/passkey/options', { challengeId: password.json().challengeId });
      expect(options.statusCode).toBe(409);
      expect(errorOf(options)).toEqual({ code: 'no_passkeys', message: PASSKEY_MESSAGES.noPasskeys });
    });
  });

  describe('re-authenticating with a passkey before a card reveal', () => {
    it('after 5 minutes the reveal asks again; a passkey answers it, the session rotates, the reveal succeeds', async () => {
      const { userId, authenticator, browser, passkeyId } = await accountWithPasskey();
      const key = Buffer.from(TEST_CARD_DATA_KEY, 'hex');
      const cardId = await insertFundedCard(t.database.db, userId, 5_000);
      await t.database.db
        .update(cards)
        .set({ numberEnc: encryptCardSecret(key, '4000056655665556', cardId), cvvEnc: encryptCardSecret(key, '123', cardId) })
        .where(eq(cards.id, cardId));
      advance(5 * MINUTE_MS + 1);
      const refused = await browser.request('POST', `/api/cards/${cardId}/reveal`);
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused).code).toBe('reauthentication_required');

      const before = browser.session!;
      const options = await browser.request('POST', '/api/auth/reauthenticate/passkey/options');
      expect(options.statusCode).toBe(200);
      expect(options.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id]);
      const confirmed = await browser.request('POST', '/api/auth/reauthenticate/passkey', { credential: authenticator.authenticate(options.json()) });
      expect(confirmed.statusCode, confirmed.body).toBe(204);
      expect(browser.session).not.toBe(before);
      expect(await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(before)))).toEqual([]);

      const revealed = await browser.request('POST', `/api/cards/${cardId}/reveal`);
      expect(revealed.statusCode, revealed.body).toBe(200);
      expect(revealed.json()).toMatchObject({ number: '4000056655665556', cvv: '123' });
      expect(await events(userId)).toContainEqual({ event: 'reauthenticated', details: { method: 'passkey', passkeyId } });
    });

    it('an account without a passkey is told to use the password', async () => {
      const { browser } = await account();
      const res = await browser.request('POST', '/api/auth/reauthenticate/passkey/options');
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('no_passkeys');
    });
  });

  describe('renaming and removing', () => {
    it('renames a passkey; another user cannot see, rename or remove it', async () => {
      const owner = await accountWithPasskey();
      const renamed = await owner.browser.request('PATCH', `/api/me/passkeys/${owner.passkeyId}`, { name: 'Phone' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().name).toBe('Phone');

      const stranger = await account();
      expect((await stranger.browser.request('GET', '/api/me/passkeys')).json()).toEqual({ passkeys: [] });
      const rename = await stranger.browser.request('PATCH', `/api/me/passkeys/${owner.passkeyId}`, { name: 'Mine now' });
      expect(rename.statusCode).toBe(404);
      const remove = await stranger.browser.request('DELETE', `/api/me/passkeys/${owner.passkeyId}`);
      expect(remove.statusCode).toBe(404);
      expect(errorOf(remove)).toEqual({ code: 'not_found', message: PASSKEY_MESSAGES.notFound });
      expect((await owner.browser.request('GET', '/api/me/passkeys')).json().passkeys).toHaveLength(1);
    });

    it('removes a passkey (recent password needed, audited); it no longer signs in', async () => {
      const owner = await accountWithPasskey();
      advance(5 * MINUTE_MS + 1);
      const stale = await owner.browser.request('DELETE', `/api/me/passkeys/${owner.passkeyId}`);
      expect(stale.statusCode).toBe(403);
      expect((await owner.browser.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
      const removed = await owner.browser.request('DELETE', `/api/me/passkeys/${owner.passkeyId}`);
      expect(removed.statusCode, removed.body).toBe(204);
      expect((await owner.browser.request('GET', '/api/me/passkeys')).json()).toEqual({ passkeys: [] });
      expect(await events(owner.userId)).toContainEqual({ event: 'passkey_removed', details: { passkeyId: owner.passkeyId } });

      const res = await signInWithPasskeyVia(jarClient(t.app, freshIp()), owner.authenticator);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe('passkey_not_recognised');
    });

    it('refuses to remove the last way to sign in (an account without a password, decision 091)', async () => {
      const owner = await accountWithPasskey();
      // No account can lose its password today; this one is made so, to prove the rule holds.
      await t.database.db.update(users).set({ passwordHash: '' }).where(eq(users.id, owner.userId));
      const res = await owner.browser.request('DELETE', `/api/me/passkeys/${owner.passkeyId}`);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'last_sign_in_method', message: PASSKEY_MESSAGES.lastSignInMethod });
      expect((await owner.browser.request('GET', '/api/me/passkeys')).json().passkeys).toHaveLength(1);
    });
  });

  it('purges challenges nobody answered', async () => {
    const browser = jarClient(t.app, freshIp());
    await browser.request('POST', '/api/auth/passkey/options');
    const { purgePasskeyChallenges } = await import('./passkey-challenges');
    advance(PASSKEY_CHALLENGE_VALID_MS + 1);
    await purgePasskeyChallenges(t.database.db, clock);
    const left = await t.database.db.select().from(passkeyChallenges);
    expect(left.every((row) => row.expiresAt.getTime() > clock.getTime())).toBe(true);
  });
});
