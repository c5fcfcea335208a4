// Signed webhooks delivered on PostgreSQL to a receiver on 127.0.0.1 that verifies them with the
// standardwebhooks package (docs/rules.md#webhooks, decision 191). The app's clock is the test's,
// so the retry schedule runs by moving it.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerUser, type ApiUser } from '../../../tests/helpers/api-client';
import { insertFundedCard, insertPayoutMethod } from '../../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { startReceiver, type Receiver } from '../../../tests/helpers/webhook-receiver';
import { events, outbox, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { createWebhookDispatcher } from './webhook-dispatch';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

describe('webhook delivery', () => {
  let t: TestApp;
  let receiver: Receiver;
  let clock = new Date();
  const at = (ms: number) => new Date(clock.getTime() + ms);
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' }, now: () => clock });
  });
  beforeEach(async () => {
    clock = new Date();
    await receiver?.close();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function userWithEndpoint(): Promise<{ user: ApiUser; id: string; endpointId: string; secret: string; cardId: string }> {
    const user = await registerUser(t.app);
    const id = (await user.request('GET', '/api/me')).json().id as string;
    const created = await user.request('POST', '/api/webhooks', { url: receiver.url });
    expect(created.statusCode).toBe(201);
    const cardId = await insertFundedCard(t.database.db, id, 10_000);
    return { user, id, endpointId: created.json().id, secret: created.json().secret, cardId };
  }
  /** After the app's own kicks (they start on the next turn of the event loop), a dispatch at `now`. */
  async function settle(now = clock) {
    await new Promise((resolve) => setImmediate(resolve));
    await t.app.webhooks.idle();
    await t.app.webhooks.dispatch(now);
  }
  const deliveriesOf = async (user: ApiUser, endpointId: string) => (await user.request('GET', `/api/webhooks/${endpointId}/deliveries`)).json().deliveries;

  it('a cash-out sends cashout.created, then cashout.paid, each once, signed, with no card number', async () => {
    const { user, id, secret, cardId } = await userWithEndpoint();
    await insertPayoutMethod(t.database.db, id, 'ach');
    const cashout = await user.request('POST', '/api/cashouts', { cardId, amountCents: 5_000, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(cashout.statusCode).toBe(201);
    await t.app.effects.drain();
    await t.app.effects.idle();
    await settle();
    await settle();
    const types = receiver.received.map((m) => m.json.type).sort();
    expect(types).toEqual(['cashout.created', 'cashout.paid']);
    for (const message of receiver.received) {
      expect(receiver.verifies(message, secret)).toBe(true);
      expect(message.headers['webhook-id']).toBe(message.json.id);
      expect(message.json.data).toMatchObject({ id: cashout.json().cashout.id, amountCents: 5_000, payoutMethod: 'ach' });
      expect(message.body).not.toMatch(/\d{13,19}/);
    }
  });

  it('failed attempts are retried on the schedule until one succeeds, and the log shows each', async () => {
    const { user, endpointId, cardId, secret } = await userWithEndpoint();
    receiver.answers.push(500, 503);
    expect((await user.request('POST', `/api/cards/${cardId}/freeze`)).statusCode).toBe(200);
    await settle();
    expect(receiver.received).toHaveLength(1);
    await settle(at(4 * SECOND));
    expect(receiver.received).toHaveLength(1);
    await settle(at(6 * SECOND));
    await settle(at(6 * SECOND + 5 * 60 * SECOND + SECOND));
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((m) => m.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received.every((m) => receiver.verifies(m, secret))).toBe(true);
    const [delivery] = await deliveriesOf(user, endpointId);
    expect(delivery).toMatchObject({ eventType: 'card.frozen', status: 'delivered', nextAttemptAt: null });
    expect(delivery.attempts.map((a: { status: number }) => a.status)).toEqual([200, 503, 500]);
    expect(delivery.attempts[1].responseStart).toBe('answered 503');
  });

  it('a 410 disables the endpoint at once; later events are kept, not sent', async () => {
    const { user, endpointId, cardId } = await userWithEndpoint();
    receiver.answers.push(410);
    await user.request('POST', `/api/cards/${cardId}/freeze`);
    await settle();
    const [endpoint] = (await user.request('GET', '/api/webhooks')).json().endpoints;
    expect(endpoint).toMatchObject({ id: endpointId, status: 'disabled', disabledReason: 'gone' });
    await user.request('POST', `/api/cards/${cardId}/unfreeze`);
    await settle(at(HOUR));
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(user, endpointId)).map((d: { status: string }) => d.status)).toEqual(['failed']);
  });

  it('no answer within the deadline is a failed attempt, retried later', async () => {
    const { user, id, endpointId, cardId } = await userWithEndpoint();
    receiver.answers.push('hang');
    await t.app.webhooks.idle();
    const quick = createWebhookDispatcher({ db: t.database.db, config: t.config, mailer: () => t.app.adapters.mailer, log: t.app.log, now: () => clock, timeoutMs: 300 });
    // The app's own dispatcher is not kicked for this change: only `quick` sends it.
    await t.database.db.insert(events).values({ id: `evt_${randomUUID().replaceAll('-', '')}`, userId: id, type: 'card.frozen', createdAt: clock, data: { id: cardId } });
    await quick.dispatch(clock);
    const [delivery] = await deliveriesOf(user, endpointId);
    expect(delivery.attempts[0]).toMatchObject({ status: null, error: 'No answer within 0.3 s.' });
    // The next wait (5 s) counts from the end of the attempt that timed out.
    expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: at(5 * SECOND + delivery.attempts[0].durationMs).toISOString() });
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const { user, id, endpointId, cardId, secret: old } = await userWithEndpoint();
    const rotated = (await user.request('POST', `/api/webhooks/${endpointId}/rotate-secret`)).json();
    expect(rotated.secret).not.toBe(old);
    await user.request('POST', `/api/cards/${cardId}/freeze`);
    await settle();
    // A day later (the session would have ended by then: the event is written as a change would).
    await t.database.db.insert(events).values({ id: `evt_${randomUUID().replaceAll('-', '')}`, userId: id, type: 'card.unfrozen', createdAt: clock, data: { id: cardId } });
    await settle(at(24 * HOUR + SECOND));
    const [during, after] = receiver.received;
    expect([receiver.verifies(during!, rotated.secret), receiver.verifies(during!, old)]).toEqual([true, true]);
    expect([receiver.verifies(after!, rotated.secret), receiver.verifies(after!, old)]).toEqual([true, false]);
  });

  it('an event of a user with no endpoint is kept, and makes no delivery', async () => {
    const user = await registerUser(t.app);
    const id = (await user.request('GET', '/api/me')).json().id as string;
    const cardId = await insertFundedCard(t.database.db, id, 1_000);
    await user.request('POST', `/api/cards/${cardId}/freeze`);
    await settle();
    const [event] = await t.database.db.select().from(events).where(eq(events.userId, id));
    expect(event).toMatchObject({ type: 'card.frozen', data: expect.objectContaining({ id: cardId, frozen: true }) });
    expect(event!.fannedOutAt).not.toBeNull();
    expect(await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id))).toEqual([]);
  });

  it('an endpoint failing every attempt for 5 days is disabled and its owner told by e-mail', async () => {
    const { user, endpointId, cardId } = await userWithEndpoint();
    await t.database.db.update(webhookEndpoints).set({ firstFailureAt: at(-5 * 24 * HOUR) }).where(eq(webhookEndpoints.id, endpointId));
    receiver.answers.push(500);
    await user.request('POST', `/api/cards/${cardId}/freeze`);
    await settle();
    const [endpoint] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: 'failing_too_long' });
    const mail = await t.database.db.select().from(outbox).where(eq(outbox.toAddress, user.email));
    expect(mail.map((m) => m.subject)).toContain('PayWeave stopped sending webhooks to one of your endpoints');
  });
});
