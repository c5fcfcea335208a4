// a stranger must not be able to lock a chosen user out. Failures count per
// account and IP together, so wrong guesses from elsewhere leave the owner's sign-in alone; wrong
// second-factor codes have a daily cap per account that pauses codes from the app, e-mails the
// owner an unlock link, and lifts with a recovery code or that link (decision 083).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type MailMessage, type Mailer } from '../../../src/server/adapters/mailer';
import { AUTH_RATE_LIMITS } from '../../../src/server/features/auth/limits';
import { base32Decode, totp } from '../../../src/server/lib/totp';
import { createTestApp, testConfig, type TestApp } from '../../helpers/test-app';
import { createTestDatabase } from '../../helpers/test-db';
import { client, loginVia, registerVia, type TestClient } from '../../helpers/auth-client';

let ipCounter = 0;
const freshIp = () => `10.88.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
let emailCounter = 0;
const freshEmail = (label: string) => `${label}-${++emailCounter}-${Date.now()}@example.com`;
const STEP_MS = 30_000;

describe('attacker: chosen-user lockout', () => {
  let t: TestApp;
  const sent: MailMessage[] = [];
  // On a step boundary, so that each `nextStep()` gives a TOTP code not used before.
  let clock = new Date(Math.ceil(Date.now() / STEP_MS) * STEP_MS);
  const nextStep = () => {
    clock = new Date(clock.getTime() + STEP_MS);
  };

  beforeAll(async () => {
    const database = await createTestDatabase();
    // The real mailer (outbox), and a copy of what was queued for the test to read.
    const real = createMailer(testConfig(), database.db);
    const mailer: Mailer = {
      async enqueue(message, tx) {
        sent.push(message);
        return real.enqueue(message, tx);
      },
      flush: () => real.flush(),
    };
    t = await createTestApp({ database, adapters: { mailer }, now: () => clock, env: { APP_URL: 'https://payweave.test' } });
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.drop();
  });

  type Account = { email: string; secret: Buffer; codes: string[]; owner: TestClient };

  async function account(label: string, twoFactor: boolean): Promise<Account> {
    const owner = client(t.app, freshIp());
    const email = freshEmail(label);
    expect((await registerVia(owner, email)).statusCode).toBe(201);
    if (!twoFactor) return { email, secret: Buffer.alloc(0), codes: [], owner };
    const setup = await owner.request('POST', '/api/me/two-factor/setup');
    const secret = base32Decode(setup.json().secret);
    const enabled = await owner.request('POST', '/api/me/two-factor/enable', { code: totp(secret, clock) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    nextStep();
    return { email, secret, codes: enabled.json().recoveryCodes, owner };
  }

  async function secondStep(a: Account, c: TestClient, code: string) {
    const first = await loginVia(c, a.email);
    expect(first.statusCode, first.body).toBe(200);
    return c.request('POST', '/api/auth/login/two-factor', { challengeId: first.json().challengeId, code });
  }

  /** `count` wrong codes through as many challenges (5 codes each) and addresses (10 failures each) as it takes. */
  async function wrongCodes(a: Account, count: number): Promise<number[]> {
    const statuses: number[] = [];
    let c = client(t.app, freshIp());
    let challengeId = '';
    for (let i = 0; i < count; i += 1) {
      if (i % AUTH_RATE_LIMITS.twoFactor.failuresPerAccountAndIp === 0) c = client(t.app, freshIp());
      if (i % 5 === 0 || i % AUTH_RATE_LIMITS.twoFactor.failuresPerAccountAndIp === 0) challengeId = (await loginVia(c, a.email)).json().challengeId;
      statuses.push((await c.request('POST', '/api/auth/login/two-factor', { challengeId, code: '000000' })).statusCode);
    }
    return statuses;
  }

  it('wrong passwords from other addresses never lock the owner out of sign-in', async () => {
    const victim = await account('victim', false);
    // Sixteen strangers, each far past its own allowance.
    for (let s = 0; s < 16; s += 1) {
      const stranger = client(t.app, freshIp());
      const statuses: number[] = [];
      for (let i = 0; i < AUTH_RATE_LIMITS.login.failuresPerAccountAndIp + 2; i += 1) statuses.push((await loginVia(stranger, victim.email, `Wrong-Guess-${i}`)).statusCode);
      expect(statuses.slice(0, AUTH_RATE_LIMITS.login.failuresPerAccountAndIp).every((x) => x === 401)).toBe(true);
      expect(statuses.slice(AUTH_RATE_LIMITS.login.failuresPerAccountAndIp)).toEqual([429, 429]);
    }
    const owner = await loginVia(client(t.app, freshIp()), victim.email);
    expect(owner.statusCode, owner.body).toBe(200);
    // Nor from the owner's own address, where the strangers never were.
    expect((await loginVia(victim.owner, victim.email)).statusCode).toBe(200);
  });

  it('wrong second-factor codes from another address do not lock the owner out', async () => {
    const victim = await account('victim-2fa', true);
    const statuses = await wrongCodes(victim, AUTH_RATE_LIMITS.twoFactor.failuresPerAccountAndIp);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const owner = client(t.app, freshIp());
    const res = await secondStep(victim, owner, totp(victim.secret, clock));
    expect(res.statusCode, res.body).toBe(200);
  });

  it(`the daily cap (${AUTH_RATE_LIMITS.twoFactorDailyFailures} wrong codes) pauses codes from the app, e-mails the owner, and a recovery code unlocks`, async () => {
    const victim = await account('capped', true);
    sent.length = 0;
    const statuses = await wrongCodes(victim, AUTH_RATE_LIMITS.twoFactorDailyFailures);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(401);
    const mails = sent.filter((m) => m.to === victim.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/paused/i);
    expect(mails[0]!.text).toMatch(/https:\/\/payweave\.test\/unlock-two-factor\?token=[A-Za-z0-9_-]{43}/);

    // Now even the right code from the app is refused, with a message that says what to do.
    const locked = await secondStep(victim, client(t.app, freshIp()), totp(victim.secret, clock));
    expect(locked.statusCode).toBe(401);
    expect(locked.json().error.code).toBe('two_factor_locked');
    expect(locked.json().error.message).toMatch(/recovery code/);

    // A recovery code signs in and unlocks.
    const recovered = await secondStep(victim, client(t.app, freshIp()), victim.codes[0]!);
    expect(recovered.statusCode, recovered.body).toBe(200);
    nextStep();
    const again = await secondStep(victim, client(t.app, freshIp()), totp(victim.secret, clock));
    expect(again.statusCode, again.body).toBe(200);
  });

  it('the e-mailed link unlocks, once; an expired one is replaced on the next code from the app', async () => {
    const victim = await account('linked', true);
    sent.length = 0;
    const statuses = await wrongCodes(victim, AUTH_RATE_LIMITS.twoFactorDailyFailures + 1);
    expect(statuses.at(-1)).toBe(401);
    const mail = sent.find((m) => m.to === victim.email);
    let token = /unlock-two-factor\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    expect((await secondStep(victim, client(t.app, freshIp()), totp(victim.secret, clock))).json().error.code).toBe('two_factor_locked');

    // An hour later the link has expired; a code from the app, still refused, e-mails a new one.
    clock = new Date(clock.getTime() + 61 * 60_000);
    expect((await secondStep(victim, client(t.app, freshIp()), totp(victim.secret, clock))).json().error.code).toBe('two_factor_locked');
    const links = sent.filter((m) => m.to === victim.email).map((m) => /unlock-two-factor\?token=([A-Za-z0-9_-]{43})/.exec(m.text)?.[1]);
    expect(links).toHaveLength(2);
    const visitor = client(t.app, freshIp());
    expect((await visitor.request('POST', '/api/auth/two-factor/unlock', { token })).statusCode).toBe(400);
    token = links[1];
    // Opening the page twice, or a second wrong code, does not send a third while this one lives.
    expect((await secondStep(victim, client(t.app, freshIp()), totp(victim.secret, clock))).json().error.code).toBe('two_factor_locked');
    expect(sent.filter((m) => m.to === victim.email)).toHaveLength(2);

    const unlocked = await visitor.request('POST', '/api/auth/two-factor/unlock', { token });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json()).toEqual({ message: 'Codes from your authenticator app work again.' });
    const reused = await visitor.request('POST', '/api/auth/two-factor/unlock', { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('invalid_token');

    nextStep();
    const signedIn = await secondStep(victim, client(t.app, freshIp()), totp(victim.secret, clock));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });
});
