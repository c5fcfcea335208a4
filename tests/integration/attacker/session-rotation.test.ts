// docs/rules.md#sessions: the session is rotated at every sign-in and re-authentication.
// After the user proves again who they are (the password before a card reveal, the second
// sign-in step, the password for a settings change), the cookie they had is dead and only the
// new one works: whoever copied the old cookie (a shared computer, a leaked log) holds nothing.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../../../src/server/lib/totp';
import { SESSION_COOKIE } from '../../../src/server/plugins/session';
import { client, loginVia, OTHER_STRONG_PASSWORD, registerVia, sessionCookieOf, STRONG_PASSWORD, type TestClient } from '../../helpers/auth-client';
import { asUser, createCard } from '../../helpers/api-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const STEP_MS = 30_000;

describe('attacker: a re-authentication rotates the session', () => {
  let t: TestApp;
  let clock = new Date(Math.ceil(Date.now() / STEP_MS) * STEP_MS);
  let counter = 0;
  const freshIp = () => `10.77.${Math.floor(++counter / 250)}.${(counter % 250) + 1}`;
  const freshEmail = (label: string) => `rotation-${label}-${++counter}@example.com`;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
  });
  // A fresh rate-limit window and a fresh TOTP step for every test.
  beforeEach(() => {
    clock = new Date(clock.getTime() + 2 * 60_000);
  });

  /** A request made with exactly this cookie (the copy an attacker kept). */
  const withCookie = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      remoteAddress: '203.0.113.50',
      headers: { host: 'localhost', cookie: `${SESSION_COOKIE}=${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json', origin: 'http://localhost' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  async function signedIn(label: string): Promise<{ browser: TestClient; email: string }> {
    const browser = client(t.app, freshIp());
    const email = freshEmail(label);
    expect((await registerVia(browser, email)).statusCode).toBe(201);
    return { browser, email };
  }

  /** The old cookie is refused, the new one (from the answer) works and differs. */
  async function expectRotated(old: string, answer: LightMyRequestResponse) {
    const fresh = sessionCookieOf(answer)?.value;
    expect(fresh, `no new session cookie in ${answer.statusCode} ${answer.body}`).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(old);
    expect((await withCookie(old, 'GET', '/api/me')).statusCode).toBe(401);
    expect((await withCookie(fresh!, 'GET', '/api/me')).statusCode).toBe(200);
  }

  it('the password before a card reveal: new cookie, the old one is refused, the reveal works with the new one', async () => {
    const { browser, email } = await signedIn('reveal');
    const user = asUser(t.app, email, `${SESSION_COOKIE}=${browser.cookie!}`);
    const created = await createCard(user, '20');
    expect(created.statusCode, created.body).toBe(201);
    const cardId = (created.json() as { card: { id: string } }).card.id;
    // Five minutes later the sign-in no longer counts as a recent password.
    clock = new Date(clock.getTime() + 6 * 60_000);
    const old = user.cookie.slice(`${SESSION_COOKIE}=`.length);
    expect((await withCookie(old, 'POST', `/api/cards/${cardId}/reveal`, {})).statusCode).toBe(403);

    const reauth = await withCookie(old, 'POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD });
    expect(reauth.statusCode, reauth.body).toBe(204);
    await expectRotated(old, reauth);
    const fresh = sessionCookieOf(reauth)!.value;
    expect((await withCookie(old, 'POST', `/api/cards/${cardId}/reveal`, {})).statusCode).toBe(401);
    const revealed = await withCookie(fresh, 'POST', `/api/cards/${cardId}/reveal`, {});
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.json()).toHaveProperty('cvv');
  });

  it('a wrong password rotates nothing: the session stays as it was', async () => {
    const { browser } = await signedIn('wrong');
    const old = browser.cookie!;
    const refused = await withCookie(old, 'POST', '/api/auth/reauthenticate', { password: 'Not-The-Password-1' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'wrong_password' } });
    expect(sessionCookieOf(refused)).toBeUndefined();
    expect((await withCookie(old, 'GET', '/api/me')).statusCode).toBe(200);
  });

  it('the two-factor sign-in step: the session the browser had before is dead, the new one works', async () => {
    const { browser, email } = await signedIn('tfa');
    const setup = await browser.request('POST', '/api/me/two-factor/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const secret = base32Decode((setup.json() as { secret: string }).secret);
    const enabled = await browser.request('POST', '/api/me/two-factor/enable', { code: totp(secret, clock) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    // Confirming two-factor with a code is a re-authentication too.
    const beforeEnable = sessionCookieOf(enabled)?.value;
    expect(beforeEnable).toBeDefined();

    const old = browser.cookie!;
    const challenge = await loginVia(browser, email);
    expect(challenge.statusCode, challenge.body).toBe(200);
    clock = new Date(clock.getTime() + STEP_MS);
    const second = await browser.request('POST', '/api/auth/login/two-factor', { challengeId: (challenge.json() as { challengeId: string }).challengeId, code: totp(secret, clock) });
    expect(second.statusCode, second.body).toBe(200);
    await expectRotated(old, second);
  });

  it('enabling two-factor with a code rotates the session', async () => {
    const { browser } = await signedIn('enable');
    const setup = await browser.request('POST', '/api/me/two-factor/setup');
    const secret = base32Decode((setup.json() as { secret: string }).secret);
    const old = browser.cookie!;
    const enabled = await withCookie(old, 'POST', '/api/me/two-factor/enable', { code: totp(secret, clock) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await expectRotated(old, enabled);
  });

  it('every settings change that asks for the password again rotates the session', async () => {
    const { browser, email } = await signedIn('settings');
    let current = browser.cookie!;
    const steps: Array<[string, 'POST', string, unknown] | [string, 'PUT', string, unknown]> = [
      ['change e-mail', 'PUT', '/api/me/email', { email: `moved-${email}`, currentPassword: STRONG_PASSWORD }],
      ['change password', 'PUT', '/api/me/password', { currentPassword: STRONG_PASSWORD, newPassword: OTHER_STRONG_PASSWORD }],
    ];
    for (const [what, method, url, payload] of steps) {
      const answer = await t.app.inject({
        method,
        url,
        remoteAddress: browser.ip,
        headers: { host: 'localhost', origin: 'http://localhost', 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${current}` },
        payload: JSON.stringify(payload),
      });
      expect(answer.statusCode, `${what}: ${answer.body}`).toBeLessThan(300);
      await expectRotated(current, answer);
      current = sessionCookieOf(answer)!.value;
    }
  });
});
