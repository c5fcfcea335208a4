// The endpoints API (docs/rules.md#webhooks): the address rules at registration, 5 endpoints per
// user, the secret shown once and kept encrypted, someone else's endpoint not found, resend and
// test sends (rate-limited). Delivery itself: effects/webhook-dispatch.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { startReceiver, type Receiver } from '../../../../tests/helpers/webhook-receiver';
import { EVENT_TYPES, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_MESSAGES } from '../../../contracts/webhooks';
import { webhookEndpoints } from '../../db/schema';
import { WEBHOOK_SEND_LIMIT } from './deliveries-service';

describe('webhook endpoints API', () => {
  let strict: TestApp;
  let loopback: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    [strict, loopback, receiver] = await Promise.all([createTestApp(), createTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } }), startReceiver()]);
  });
  afterAll(async () => {
    await receiver?.close();
    await strict?.close();
    await loopback?.close();
  });

  it('refuses addresses that are not public, with the field and the reason, unless loopback is allowed in demo mode', async () => {
    const user = await registerUser(strict.app);
    const refused = await user.request('POST', '/api/webhooks', { url: receiver.url });
    expect(refused.statusCode).toBe(400);
    const reason = 'This address points to this server itself and cannot receive webhooks.';
    expect(refused.json().error).toMatchObject({ code: 'validation_error', message: reason, details: [{ path: '/url', message: reason }] });
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.7/hooks', 'http://[::ffff:192.168.1.1]/', 'ftp://example.com/x', 'not a url']) {
      expect((await user.request('POST', '/api/webhooks', { url })).statusCode, url).toBe(400);
    }
    expect((await user.request('POST', '/api/webhooks', {})).json().error.details).toEqual([expect.objectContaining({ path: '/url' })]);
    const other = await registerUser(loopback.app);
    expect((await other.request('POST', '/api/webhooks', { url: receiver.url })).statusCode).toBe(201);
    expect((await other.request('POST', '/api/webhooks', { url: 'http://169.254.169.254/' })).json().error.message).toBe(
      "This address is a cloud provider's metadata service and cannot receive webhooks.",
    );
  });

  it('shows the secret once, keeps it encrypted, and lists endpoints without it', async () => {
    const user = await registerUser(loopback.app);
    const created = (await user.request('POST', '/api/webhooks', { url: receiver.url })).json();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await loopback.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    const listed = (await user.request('GET', '/api/webhooks')).json().endpoints;
    expect(listed).toEqual([{ id: created.id, url: receiver.url, status: 'enabled', disabledReason: null, createdAt: created.createdAt, previousSecretValidUntil: null }]);
    const rotated = (await user.request('POST', `/api/webhooks/${created.id}/rotate-secret`)).json();
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previousSecretValidUntil) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
  });

  it(`refuses a ${MAX_WEBHOOK_ENDPOINTS + 1}th endpoint, and takes one again after a deletion`, async () => {
    const user = await registerUser(loopback.app);
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i += 1) ids.push((await user.request('POST', '/api/webhooks', { url: `${receiver.url}/${i}` })).json().id);
    const sixth = await user.request('POST', '/api/webhooks', { url: receiver.url });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().error).toMatchObject({ code: 'webhook_endpoint_limit_reached', message: WEBHOOK_MESSAGES.limit });
    expect((await user.request('DELETE', `/api/webhooks/${ids[0]}`)).statusCode).toBe(204);
    expect((await user.request('POST', '/api/webhooks', { url: receiver.url })).statusCode).toBe(201);
  });

  it("answers 404 for someone else's endpoint, whatever is asked", async () => {
    const owner = await registerUser(loopback.app);
    const stranger = await registerUser(loopback.app);
    const { id } = (await owner.request('POST', '/api/webhooks', { url: receiver.url })).json();
    for (const [method, url] of [
      ['DELETE', `/api/webhooks/${id}`],
      ['POST', `/api/webhooks/${id}/rotate-secret`],
      ['GET', `/api/webhooks/${id}/deliveries`],
      ['POST', `/api/webhooks/${id}/test`],
      ['POST', `/api/webhooks/${id}/events/evt_0/resend`],
    ] as const) {
      expect((await stranger.request(method, url)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await owner.request('GET', '/api/webhooks')).json().endpoints).toHaveLength(1);
  });

  it('sends a test event and resends it, each a delivery of its own with the same webhook-id; test sends are rate-limited', async () => {
    const user = await registerUser(loopback.app);
    const created = (await user.request('POST', '/api/webhooks', { url: receiver.url })).json();
    const before = receiver.received.length;
    const test = await user.request('POST', `/api/webhooks/${created.id}/test`);
    expect(test.statusCode).toBe(202);
    const resent = await user.request('POST', `/api/webhooks/${created.id}/events/${test.json().eventId}/resend`);
    expect(resent.statusCode).toBe(202);
    await loopback.app.webhooks.idle();
    await loopback.app.webhooks.dispatch();
    const mine = receiver.received.slice(before);
    expect(mine.map((m) => [m.json.type, m.headers['webhook-id']])).toEqual([
      ['webhook.test', test.json().eventId],
      ['webhook.test', test.json().eventId],
    ]);
    expect(mine.every((m) => receiver.verifies(m, created.secret))).toBe(true);
    const deliveries = (await user.request('GET', `/api/webhooks/${created.id}/deliveries`)).json().deliveries;
    expect(deliveries.map((d: { status: string }) => d.status)).toEqual(['delivered', 'delivered']);
    let last = 0;
    for (let i = 2; i <= WEBHOOK_SEND_LIMIT.points + 1; i += 1) last = (await user.request('POST', `/api/webhooks/${created.id}/test`)).statusCode;
    expect(last).toBe(429);
    await loopback.app.webhooks.idle();
  });

  it("describes every event in the OpenAPI document's webhooks, with its data", async () => {
    const document = (await strict.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES, 'webhook.test'].sort());
    const body = document.webhooks['cashout.created'].post.requestBody.content['application/json'].schema;
    expect(body.properties.data.properties).toHaveProperty('netAmountCents');
  });

  it("closing the account deletes its endpoints: a closed account's events go nowhere", async () => {
    const user = await registerUser(loopback.app);
    const { id } = (await user.request('POST', '/api/webhooks', { url: receiver.url })).json();
    expect((await user.request('POST', '/api/me/close-account')).statusCode).toBeLessThan(300);
    expect(await loopback.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))).toEqual([]);
  });
});
