// Decision 176: a stranger who knows an address could have PayWeave mail it a reset link three
// times a minute (the per-address request limit of decision 082), 180 an hour, for as long as they
// liked, from one IP. Now an account is sent at most RESET_EMAILS_PER_HOUR reset e-mails in any
// hour; further requests answer exactly as before and send nothing, and the links already sent
// stay valid, so the owner can still reset.
//
// The per-address request limit counts wall-clock minutes (rate-limiter-flexible), so this test
// turns the limits off (decision 013's switch, demo mode) to make in seconds the requests a
// stranger spreads over an hour.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, outbox, users } from '../../../src/server/db/schema';
import { RESET_EMAILS_PER_HOUR } from '../../../src/server/features/auth/password-reset';
import { registerUser } from '../../helpers/api-client';
import { client } from '../../helpers/auth-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const REQUESTS = 10;

describe('attacker: flooding a mailbox with reset e-mails (decision 176)', () => {
  let t: TestApp;
  let clock = new Date();
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DISABLED: 'true' }, now: () => clock });
  });
  afterAll(async () => t?.close());

  const askReset = (email: string, i: number) => client(t.app, `203.0.113.${(i % 200) + 1}`).request('POST', '/api/auth/password-reset', { email });
  const mailsTo = async (email: string, subject: string) =>
    (await t.database.db.select({ text: outbox.textBody }).from(outbox).where(and(eq(outbox.toAddress, email), eq(outbox.subject, subject)))).map((row) => row.text);
  const auditsOf = async (email: string, event: string) => {
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return (await t.database.db.select({ id: auditLog.id }).from(auditLog).where(and(eq(auditLog.userId, user!.id), eq(auditLog.event, event)))).length;
  };

  it(`${REQUESTS} requests for one address in an hour send it ${RESET_EMAILS_PER_HOUR} links; every answer is the same; the owner still resets; an hour later it gets a link again`, async () => {
    const victim = await registerUser(t.app);
    const answers = new Set<string>();
    for (let i = 0; i < REQUESTS; i += 1) {
      // One every 5 minutes: all ten within 45 minutes.
      clock = new Date(clock.getTime() + 5 * 60 * 1000);
      const res = await askReset(victim.email, i);
      expect(res.statusCode).toBe(202);
      answers.add(res.body);
    }
    expect(answers.size).toBe(1);
    const links = await mailsTo(victim.email, 'Reset your PayWeave password');
    expect(links).toHaveLength(RESET_EMAILS_PER_HOUR);
    expect(await auditsOf(victim.email, 'password_reset_requested')).toBe(RESET_EMAILS_PER_HOUR);
    expect(await auditsOf(victim.email, 'password_reset_not_sent')).toBe(REQUESTS - RESET_EMAILS_PER_HOUR);
    // The owner's security activity lists the e-mails sent, not every request.
    const activity = (await victim.request('GET', '/api/me/security-activity')).json() as { events: Array<{ kind: string }> };
    expect(activity.events.filter((event) => event.kind === 'password_reset_requested')).toHaveLength(RESET_EMAILS_PER_HOUR);

    // Any of the links sent still works.
    const token = /token=([A-Za-z0-9_-]{43})/.exec(links[0]!)?.[1];
    const confirmed = await client(t.app, '198.51.100.7').request('POST', '/api/auth/password-reset/confirm', { token, password: 'Another-Strong-77' });
    expect(confirmed.statusCode, confirmed.body).toBe(204);

    // An hour after the last link was sent, a request sends one again.
    clock = new Date(clock.getTime() + 61 * 60 * 1000);
    expect((await askReset(victim.email, 0)).statusCode).toBe(202);
    expect(await mailsTo(victim.email, 'Reset your PayWeave password')).toHaveLength(RESET_EMAILS_PER_HOUR + 1);
  });

  it('a closed account is sent its notice at most as often; an unknown address nothing at all', async () => {
    const closed = await registerUser(t.app);
    await t.database.db.update(users).set({ closedAt: clock }).where(eq(users.email, closed.email));
    for (let i = 0; i < REQUESTS; i += 1) expect((await askReset(closed.email, i)).statusCode).toBe(202);
    expect(await mailsTo(closed.email, 'Your PayWeave account is closed')).toHaveLength(RESET_EMAILS_PER_HOUR);

    const unknown = 'nobody-here@example.com';
    for (let i = 0; i < 3; i += 1) expect((await askReset(unknown, i)).statusCode).toBe(202);
    expect(await t.database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.toAddress, unknown))).toHaveLength(0);
  });
});
