// Settings → Security → Signed-in devices (docs/decisions/164), through the API: the list of a
// user's live sessions, ending one or all the others, what is refused and what nothing changes.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client, loginVia, registerVia, STRONG_PASSWORD, type TestClient } from '../../../../tests/helpers/auth-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { eventually, twoInstancesOnOnePostgres, type TwoInstances } from '../../../../tests/helpers/two-instances';
import { SESSION_MESSAGES, type SignedInSession } from '../../../contracts/sessions';
import { auditLog, sessions } from '../../db/schema';
import { END_SESSIONS_REAUTH_WINDOW_MS } from './end-sessions';

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

type Device = TestClient & { userAgent: string };

/** A browser on one address with one user agent, keeping its own session cookie. */
function device(app: TestApp['app'], ip: string, userAgent: string): Device {
  const inner = client(app, ip);
  return {
    ip,
    userAgent,
    get cookie() {
      return inner.cookie;
    },
    set cookie(value) {
      inner.cookie = value;
    },
    request: (method, url, payload, headers = {}) => inner.request(method, url, payload, { 'user-agent': userAgent, ...headers }),
  };
}

function errorOf(res: { json(): unknown }) {
  return (res.json() as { error: { code: string; message: string } }).error;
}

async function listOf(d: Device): Promise<SignedInSession[]> {
  const res = await d.request('GET', '/api/me/sessions');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { sessions: SignedInSession[] }).sessions;
}

const currentOf = async (d: Device) => (await listOf(d)).find((s) => s.current)!;

describe('signed-in devices', () => {
  let t: TestApp;
  let clock = new Date('2026-12-01T09:00:00.000Z');
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  let addressCount = 0;
  const nextIpv4 = () => `203.0.${113 + Math.floor(++addressCount / 200)}.${(addressCount % 200) + 7}`;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
  });
  // Each test starts well past the last one's re-authentication window and idle write throttle.
  beforeEach(() => advance(HOUR_MS));

  /** One account signed in on a laptop (Chrome on Linux, IPv4) and a phone (Safari on iPhone, IPv6). */
  async function accountOnTwoDevices() {
    const email = `devices-${randomUUID()}@example.com`;
    const laptop = device(t.app, nextIpv4(), CHROME_ON_LINUX);
    const registered = await registerVia(laptop, email);
    expect(registered.statusCode, registered.body).toBe(201);
    advance(2 * MINUTE_MS);
    const phone = device(t.app, `2001:db8:85a3:${(++addressCount).toString(16)}::8a2e:370:7334`, SAFARI_ON_IPHONE);
    expect((await loginVia(phone, email)).statusCode).toBe(200);
    return { email, userId: (registered.json() as { id: string }).id, laptop, phone };
  }

  it('lists both sessions of a user, the caller’s own marked current and first, described without the raw user agent or address', async () => {
    const { laptop, phone } = await accountOnTwoDevices();
    const signedInAt = clock;
    advance(MINUTE_MS);

    const res = await laptop.request('GET', '/api/me/sessions');
    expect(res.statusCode).toBe(200);
    const fromLaptop = (res.json() as { sessions: SignedInSession[] }).sessions;
    expect(fromLaptop).toEqual([
      { id: expect.any(String), createdAt: expect.any(String), lastSeenAt: clock.toISOString(), device: 'Chrome on Linux', ipAddress: expect.stringMatching(/^203\.0\.\d+\.x$/), current: true },
      {
        id: expect.any(String),
        createdAt: signedInAt.toISOString(),
        lastSeenAt: signedInAt.toISOString(),
        device: 'Safari on iPhone',
        ipAddress: expect.stringMatching(/^2001:db8:85a3:x:x:x:x:x$/),
        current: false,
      },
    ]);
    expect(laptop.ip.startsWith(fromLaptop[0]!.ipAddress!.slice(0, -1))).toBe(true);
    // No token, hash, full address or user agent leaves the server.
    expect(res.body).not.toContain('Mozilla');
    expect(res.body).not.toContain(laptop.ip);
    expect(res.body).not.toContain(laptop.cookie!);
    expect(res.headers['cache-control']).toContain('no-store');

    // The same two sessions from the phone, where the phone's is the current one.
    const fromPhone = await listOf(phone);
    expect(fromPhone.map((s) => [s.id, s.current])).toEqual([
      [fromLaptop[1]!.id, true],
      [fromLaptop[0]!.id, false],
    ]);
  });

  it('ending another session makes that session’s next request 401; the caller’s own carries on', async () => {
    const { laptop, phone } = await accountOnTwoDevices();
    const phoneSession = await currentOf(phone);

    // In upper case, as a client may write a uuid: the same session, forgotten at once all the same.
    const ended = await laptop.request('DELETE', `/api/me/sessions/${phoneSession.id.toUpperCase()}`);
    expect(ended.statusCode, ended.body).toBe(204);
    expect(ended.body).toBe('');

    const next = await phone.request('GET', '/api/me');
    expect(next.statusCode).toBe(401);
    expect(errorOf(next).code).toBe('unauthorized');
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await listOf(laptop)).map((s) => s.current)).toEqual([true]);
    // Ending it again: it is gone.
    const again = await laptop.request('DELETE', `/api/me/sessions/${phoneSession.id}`);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toEqual({ code: 'not_found', message: SESSION_MESSAGES.notFound });
  });

  it('sign-out-others ends every other session and leaves only the caller’s', async () => {
    const { email, userId, laptop, phone } = await accountOnTwoDevices();
    advance(MINUTE_MS);
    const desktop = device(t.app, nextIpv4(), FIREFOX_ON_WINDOWS);
    expect((await loginVia(desktop, email)).statusCode).toBe(200);
    // The laptop signed in three minutes ago: still within the five-minute window.
    expect((await listOf(laptop)).map((s) => s.device)).toEqual(['Chrome on Linux', 'Firefox on Windows', 'Safari on iPhone']);

    const res = await laptop.request('POST', '/api/me/sessions/sign-out-others');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });

    expect((await phone.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await desktop.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);
    expect(await listOf(laptop)).toEqual([expect.objectContaining({ device: 'Chrome on Linux', current: true })]);
    expect(await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).toHaveLength(1);
    const [audited] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.userId, userId), eq(auditLog.event, 'other_sessions_ended')));
    expect(audited?.details).toEqual({ endedSessions: 2 });

    // Alone, it ends nothing and says so.
    expect((await laptop.request('POST', '/api/me/sessions/sign-out-others')).json()).toEqual({ ended: 0 });
  });

  it('another user’s session id answers 404 and ends nothing', async () => {
    const mallory = await accountOnTwoDevices();
    const alice = await accountOnTwoDevices();
    const aliceBefore = await listOf(alice.laptop);
    const alicePhone = aliceBefore.find((s) => !s.current)!;

    for (const id of [alicePhone.id, aliceBefore.find((s) => s.current)!.id, randomUUID()]) {
      const res = await mallory.laptop.request('DELETE', `/api/me/sessions/${id}`);
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res)).toEqual({ code: 'not_found', message: SESSION_MESSAGES.notFound });
    }
    expect((await alice.phone.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await listOf(alice.laptop)).map((s) => s.id)).toEqual(aliceBefore.map((s) => s.id));
    // Mallory's own sessions are untouched too.
    expect(await listOf(mallory.laptop)).toHaveLength(2);
  });

  it('without a recent re-authentication both answer 403 reauthentication_required and end nothing; after the password they go through', async () => {
    const { laptop, phone } = await accountOnTwoDevices();
    const phoneSession = await currentOf(phone);
    const laptopSignedInAt = (await currentOf(laptop)).createdAt;
    advance(END_SESSIONS_REAUTH_WINDOW_MS);

    for (const [method, url] of [
      ['DELETE', `/api/me/sessions/${phoneSession.id}`],
      ['POST', '/api/me/sessions/sign-out-others'],
    ] as const) {
      const res = await laptop.request(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(res)).toEqual({ code: 'reauthentication_required', message: 'Please enter your password again to continue.' });
    }
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(200);
    expect(await listOf(laptop)).toHaveLength(2);

    // The web app asks for the password, then retries. Re-authentication rotates the session
    // (decision 073); the device list still shows when this device signed in.
    expect((await laptop.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
    expect((await currentOf(laptop)).createdAt).toBe(laptopSignedInAt);
    expect((await laptop.request('DELETE', `/api/me/sessions/${phoneSession.id}`)).statusCode).toBe(204);
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(401);
  });

  it('the current session cannot be ended through DELETE: 409 current_session says to use Logout', async () => {
    const { laptop, phone } = await accountOnTwoDevices();
    const own = await currentOf(laptop);
    for (const id of [own.id, own.id.toUpperCase()]) {
      const res = await laptop.request('DELETE', `/api/me/sessions/${id}`);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'current_session', message: SESSION_MESSAGES.currentSession });
    }
    expect(SESSION_MESSAGES.currentSession).toContain('use Logout');
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(200);
  });

  it('a session id is no credential: sent as the cookie it signs nobody in', async () => {
    const { laptop, phone } = await accountOnTwoDevices();
    const phoneSession = await currentOf(phone);
    const thief = device(t.app, nextIpv4(), CHROME_ON_LINUX);
    thief.cookie = phoneSession.id;
    const res = await thief.request('GET', '/api/me');
    expect(res.statusCode).toBe(401);
    expect((await thief.request('GET', '/api/session')).json()).toEqual({ signedIn: false, profile: null });
    // Nor in the place of a token: the cookie is looked up by its SHA-256, never by the row id.
    thief.cookie = phoneSession.id.replace(/-/g, '').padEnd(43, 'A');
    expect((await thief.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);
  });

  it('bad ids are a 400 naming the problem, never a 500; a stranger gets 401', async () => {
    const { laptop } = await accountOnTwoDevices();
    for (const id of ['not-a-uuid', '1', `${randomUUID()}x`]) {
      const res = await laptop.request('DELETE', `/api/me/sessions/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(errorOf(res).code).toBe('validation_error');
    }
    const stranger = device(t.app, nextIpv4(), CHROME_ON_LINUX);
    expect((await stranger.request('GET', '/api/me/sessions')).statusCode).toBe(401);
    expect((await stranger.request('POST', '/api/me/sessions/sign-out-others')).statusCode).toBe(401);
    expect((await stranger.request('DELETE', `/api/me/sessions/${randomUUID()}`)).statusCode).toBe(401);
  });

  it('lists live sessions only: one idle past 12 hours (without remember-me) is gone from the list', async () => {
    const email = `idle-${randomUUID()}@example.com`;
    const laptop = device(t.app, nextIpv4(), CHROME_ON_LINUX);
    expect((await registerVia(laptop, email)).statusCode).toBe(201);
    expect((await loginVia(laptop, email, STRONG_PASSWORD, true)).statusCode).toBe(200);
    const phone = device(t.app, nextIpv4(), SAFARI_ON_IPHONE);
    expect((await loginVia(phone, email)).statusCode).toBe(200);
    expect(await listOf(laptop)).toHaveLength(2);
    advance(12 * HOUR_MS + MINUTE_MS);
    expect((await listOf(laptop)).map((s) => s.device)).toEqual(['Chrome on Linux']);
  });
});

// Ending a session on one instance ends it on the others at once (decision 017's change bus):
// two app instances share one PostgreSQL database, each with its own read cache.
describe('signed-in devices across instances', () => {
  let instances: TwoInstances;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    instances = await twoInstancesOnOnePostgres();
    ({ a, b } = instances);
  });
  afterAll(async () => {
    await instances?.close();
  });

  /** The laptop on instance A; the phone's session held in instance B's cache. */
  async function phoneCachedOnB(label: string) {
    const email = `${label}-${randomUUID()}@example.com`;
    const laptop = device(a.app, '203.0.113.50', CHROME_ON_LINUX);
    expect((await registerVia(laptop, email)).statusCode).toBe(201);
    const phone = device(b.app, '203.0.113.51', SAFARI_ON_IPHONE);
    expect((await loginVia(phone, email)).statusCode).toBe(200);
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(200);
    return { laptop, phone };
  }

  it('a session ended on instance A is refused on instance B, which had it cached, within moments', async () => {
    const { laptop, phone } = await phoneCachedOnB('cross-one');
    const phoneId = (await listOf(phone)).find((s) => s.current)!.id;
    expect((await laptop.request('DELETE', `/api/me/sessions/${phoneId}`)).statusCode).toBe(204);
    const tookMs = await eventually(async () => expect((await phone.request('GET', '/api/me')).statusCode).toBe(401), 1_000);
    expect(tookMs).toBeLessThan(1_000);
  });

  it('sign-out-others on instance A is refused on instance B within moments', async () => {
    const { laptop, phone } = await phoneCachedOnB('cross-all');
    expect((await laptop.request('POST', '/api/me/sessions/sign-out-others')).json()).toEqual({ ended: 1 });
    await eventually(async () => expect((await phone.request('GET', '/api/me')).statusCode).toBe(401), 1_000);
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);
  });
});
