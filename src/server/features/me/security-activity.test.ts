// Settings → Security → Recent security activity (decision 166), through the API: the account's own
// security events, newest first, worded kinds only, addresses masked, nothing of anyone else's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, loginVia, OTHER_STRONG_PASSWORD, registerVia, STRONG_PASSWORD } from '../../../../tests/helpers/auth-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { MAX_SECURITY_EVENTS, type SecurityEvent } from '../../../contracts/security-activity';
import { auditLog } from '../../db/schema';

const MINUTE_MS = 60_000;

describe('recent security activity', () => {
  let t: TestApp;
  let clock = new Date('2026-12-01T09:00:00.000Z');
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function activityOf(c: ReturnType<typeof client>): Promise<SecurityEvent[]> {
    const res = await c.request('GET', '/api/me/security-activity');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { events: SecurityEvent[] }).events;
  }

  it('lists what happened to the account’s ways in, newest first, with the address masked; sign-outs and re-entered passwords are not news', async () => {
    const email = `activity-${randomUUID()}@example.com`;
    const laptop = client(t.app, '203.0.113.45');
    expect((await registerVia(laptop, email)).statusCode).toBe(201);
    advance(MINUTE_MS);
    const stranger = client(t.app, '198.51.100.23');
    expect((await loginVia(stranger, email, 'Not-The-Password-1')).statusCode).toBe(401);
    advance(MINUTE_MS);
    const phone = client(t.app, '2001:db8:85a3:8d3::8a2e:370:7334');
    expect((await loginVia(phone, email)).statusCode).toBe(200);
    advance(MINUTE_MS);
    expect((await phone.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
    expect((await phone.request('POST', '/api/auth/logout')).statusCode).toBe(204);
    advance(MINUTE_MS);
    expect((await laptop.request('PUT', '/api/me/password', { currentPassword: STRONG_PASSWORD, newPassword: OTHER_STRONG_PASSWORD })).statusCode).toBe(204);

    expect(await activityOf(laptop)).toEqual([
      { kind: 'password_changed', at: '2026-12-01T09:04:00.000Z', ipAddress: '203.0.113.x' },
      { kind: 'sign_in', at: '2026-12-01T09:02:00.000Z', ipAddress: '2001:db8:85a3:x:x:x:x:x' },
      { kind: 'sign_in_failed', at: '2026-12-01T09:01:00.000Z', ipAddress: '198.51.100.x' },
      { kind: 'account_created', at: '2026-12-01T09:00:00.000Z', ipAddress: '203.0.113.x' },
    ]);

    // Someone else's account shows only its own.
    const other = client(t.app, '203.0.113.99');
    expect((await registerVia(other, `activity-other-${randomUUID()}@example.com`)).statusCode).toBe(201);
    expect((await activityOf(other)).map((event) => event.kind)).toEqual(['account_created']);
  });

  it(`shows the ${MAX_SECURITY_EVENTS} newest only, and nothing without a session`, async () => {
    const c = client(t.app, '203.0.113.46');
    const registered = await registerVia(c, `activity-many-${randomUUID()}@example.com`);
    const userId = (registered.json() as { id: string }).id;
    const start = clock.getTime();
    await t.database.db.insert(auditLog).values(
      Array.from({ length: MAX_SECURITY_EVENTS + 5 }, (_, i) => ({ userId, event: 'sign_in_failed', ip: '198.51.100.7', details: {}, createdAt: new Date(start + (i + 1) * MINUTE_MS) })),
    );
    const events = await activityOf(c);
    expect(events).toHaveLength(MAX_SECURITY_EVENTS);
    expect(events[0]?.at).toBe(new Date(start + (MAX_SECURITY_EVENTS + 5) * MINUTE_MS).toISOString());
    expect(events.every((event) => event.kind === 'sign_in_failed')).toBe(true);

    const signedOut = await client(t.app, '203.0.113.47').request('GET', '/api/me/security-activity');
    expect(signedOut.statusCode).toBe(401);
  });
});
