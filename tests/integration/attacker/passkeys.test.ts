// Passkeys, tried as an attacker would (docs/decisions/090): every answer below is a
// real WebAuthn answer, signed by a software authenticator, that a careless server would accept.
// Each must be refused and start no session: a replayed answer, a challenge fetched by another
// browser, another user's passkey (in a session, under a user handle, as a second factor), a
// removed passkey, a wrong origin or RP ID, a cloned authenticator whose counter went back.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../../src/server/db/schema';
import { PASSKEY_CHALLENGE_COOKIE } from '../../../src/server/features/passkeys/passkey-challenges';
import { base32Decode, totp } from '../../../src/server/lib/totp';
import { STRONG_PASSWORD } from '../../helpers/auth-client';
import { addPasskeyVia, jarClient, registerWithJar, signInWithPasskeyVia, type JarClient } from '../../helpers/passkey-client';
import { SoftAuthenticator } from '../../helpers/soft-authenticator';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const APP_URL = 'https://payweave.test';
const MINUTE_MS = 60_000;

let ipCounter = 0;
const freshIp = () => `10.66.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function codeOf(res: { json(): unknown }): string {
  return (res.json() as { error: { code: string } }).error.code;
}

describe('attacker: passkeys', () => {
  let t: TestApp;
  let clock = new Date('2026-05-04T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { APP_URL } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    clock = new Date(clock.getTime() + MINUTE_MS);
  });

  type Victim = { email: string; userId: string; browser: JarClient; authenticator: SoftAuthenticator; passkeyId: string };

  async function userWithPasskey(): Promise<Victim> {
    const browser = jarClient(t.app, freshIp());
    const email = `victim-${randomUUID()}@example.com`;
    const registered = await registerWithJar(browser, email);
    expect(registered.statusCode).toBe(201);
    const authenticator = new SoftAuthenticator(APP_URL);
    const added = await addPasskeyVia(browser, authenticator);
    expect(added.statusCode, added.body).toBe(201);
    return { email, userId: registered.json().id, browser, authenticator, passkeyId: added.json().id };
  }

  async function sessionCount(userId: string): Promise<number> {
    return (await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).length;
  }

  it('a replayed sign-in answer is refused: the challenge was spent by its first use', async () => {
    const victim = await userWithPasskey();
    const thief = jarClient(t.app, freshIp());
    const options = await thief.request('POST', '/api/auth/passkey/options');
    const cookie = thief.cookies.get(PASSKEY_CHALLENGE_COOKIE)!;
    const answer = victim.authenticator.authenticate(options.json());
    expect((await thief.request('POST', '/api/auth/passkey', { credential: answer })).statusCode).toBe(200);

    const replayer = jarClient(t.app, freshIp());
    replayer.cookies.set(PASSKEY_CHALLENGE_COOKIE, cookie);
    const before = await sessionCount(victim.userId);
    const replayed = await replayer.request('POST', '/api/auth/passkey', { credential: answer });
    expect(replayed.statusCode).toBe(400);
    expect(codeOf(replayed)).toBe('passkey_challenge_expired');
    expect(replayer.session).toBeUndefined();
    expect(await sessionCount(victim.userId)).toBe(before);
  });

  it('a replayed re-authentication answer is refused', async () => {
    const victim = await userWithPasskey();
    const options = await victim.browser.request('POST', '/api/auth/reauthenticate/passkey/options');
    const answer = victim.authenticator.authenticate(options.json());
    expect((await victim.browser.request('POST', '/api/auth/reauthenticate/passkey', { credential: answer })).statusCode).toBe(204);
    const again = await victim.browser.request('POST', '/api/auth/reauthenticate/passkey', { credential: answer });
    expect(again.statusCode).toBe(400);
    expect(codeOf(again)).toBe('passkey_challenge_expired');
  });

  it('a challenge fetched by one browser cannot be answered from another (bound to its cookie)', async () => {
    const victim = await userWithPasskey();
    const phisher = jarClient(t.app, freshIp());
    const options = await phisher.request('POST', '/api/auth/passkey/options');
    // An answer to the phisher's challenge, sent from a browser holding a challenge of its own:
    // the server checks the answer against the challenge bound to the sending browser's cookie.
    const answer = victim.authenticator.authenticate(options.json());
    const elsewhere = jarClient(t.app, freshIp());
    expect((await elsewhere.request('POST', '/api/auth/passkey/options')).statusCode).toBe(200);
    const res = await elsewhere.request('POST', '/api/auth/passkey', { credential: answer });
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('passkey_rejected');
    expect(elsewhere.session).toBeUndefined();
  });

  it("another user's passkey cannot re-authenticate my session, nor sign in under my user handle, nor complete my second step", async () => {
    const victim = await userWithPasskey();
    const attacker = await userWithPasskey();

    // In the victim's session (stolen), the attacker's own passkey to pass the re-authentication.
    const options = await victim.browser.request('POST', '/api/auth/reauthenticate/passkey/options');
    const foreign = await victim.browser.request('POST', '/api/auth/reauthenticate/passkey', { credential: attacker.authenticator.authenticate(options.json()) });
    expect(foreign.statusCode).toBe(400);
    expect(codeOf(foreign)).toBe('passkey_not_recognised');

    // The attacker's passkey presented with the victim's user handle.
    const browser = jarClient(t.app, freshIp());
    const signInOptions = await browser.request('POST', '/api/auth/passkey/options');
    const victimHandle = Buffer.from(victim.userId.replace(/-/g, ''), 'hex').toString('base64url');
    const spoofed = await browser.request('POST', '/api/auth/passkey', { credential: attacker.authenticator.authenticate(signInOptions.json(), { userHandle: victimHandle }) });
    expect(spoofed.statusCode).toBe(401);
    expect(codeOf(spoofed)).toBe('passkey_not_recognised');
    expect(browser.session).toBeUndefined();

    // The victim's password is known, two-factor is on: the attacker's passkey is no second factor.
    const setup = await victim.browser.request('POST', '/api/me/two-factor/setup');
    expect((await victim.browser.request('POST', '/api/me/two-factor/enable', { code: totp(base32Decode(setup.json().secret), clock) })).statusCode).toBe(200);
    const stranger = jarClient(t.app, freshIp());
    const password = await stranger.request('POST', '/api/auth/login', { email: victim.email, password: STRONG_PASSWORD });
    const { challengeId } = password.json();
    const stepOptions = await stranger.request('POST', '/api/auth/login/two-factor/passkey/options', { challengeId });
    const step = await stranger.request('POST', '/api/auth/login/two-factor/passkey', { challengeId, credential: attacker.authenticator.authenticate(stepOptions.json()) });
    expect(step.statusCode).toBe(401);
    expect(codeOf(step)).toBe('passkey_not_recognised');
    expect(stranger.session).toBeUndefined();
  });

  it('a removed passkey signs in nobody', async () => {
    const victim = await userWithPasskey();
    expect((await victim.browser.request('DELETE', `/api/me/passkeys/${victim.passkeyId}`)).statusCode).toBe(204);
    const browser = jarClient(t.app, freshIp());
    const res = await signInWithPasskeyVia(browser, victim.authenticator);
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('passkey_not_recognised');
    expect(browser.session).toBeUndefined();
    expect(await sessionCount(victim.userId)).toBe(1); // only the victim's own
  });

  it('an answer made for another origin or another site (RP ID) is refused, at sign-in and when adding', async () => {
    const victim = await userWithPasskey();
    for (const overrides of [{ origin: 'https://payweave.test.evil.example' }, { origin: 'http://payweave.test' }, { rpId: 'evil.example' }]) {
      const browser = jarClient(t.app, freshIp());
      const options = await browser.request('POST', '/api/auth/passkey/options');
      const res = await browser.request('POST', '/api/auth/passkey', { credential: victim.authenticator.authenticate(options.json(), overrides) });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(401);
      expect(codeOf(res)).toBe('passkey_rejected');
      expect(browser.session).toBeUndefined();
    }
    const phished = new SoftAuthenticator('https://evil.example');
    const added = await addPasskeyVia(victim.browser, phished);
    expect(added.statusCode).toBe(400);
    expect(codeOf(added)).toBe('passkey_rejected');
    expect((await victim.browser.request('GET', '/api/me/passkeys')).json().passkeys).toHaveLength(1);
  });

  it('a cloned authenticator (its counter behind the one last seen) is refused', async () => {
    const victim = await userWithPasskey();
    expect((await signInWithPasskeyVia(jarClient(t.app, freshIp()), victim.authenticator)).statusCode).toBe(200);
    expect((await signInWithPasskeyVia(jarClient(t.app, freshIp()), victim.authenticator)).statusCode).toBe(200);
    victim.authenticator.counter = 0; // the clone was copied when the counter was at 0
    const browser = jarClient(t.app, freshIp());
    const res = await signInWithPasskeyVia(browser, victim.authenticator);
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('passkey_rejected');
    expect(browser.session).toBeUndefined();
  });

  it('an answer without user verification (no PIN or biometric) is refused', async () => {
    const victim = await userWithPasskey();
    const lazy = Object.assign(Object.create(Object.getPrototypeOf(victim.authenticator)), victim.authenticator, { options: { userVerified: false } }) as SoftAuthenticator;
    const browser = jarClient(t.app, freshIp());
    const res = await signInWithPasskeyVia(browser, lazy);
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('passkey_rejected');
  });
});
