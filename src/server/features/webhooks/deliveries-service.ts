// An endpoint's delivery log (newest first, each attempt's time, status, duration and the answer's
// first bytes), "Resend" of any of the user's events to it, and "Send test event". A resend or a
// test is a new delivery, sent by the dispatcher right after (webhook-dispatch.ts) with the event's
// own id as webhook-id: a receiver that already has the event deduplicates it.
import { and, desc, eq } from 'drizzle-orm';
import { TEST_EVENT_TYPE, WEBHOOK_MESSAGES, type WebhookDelivery } from '../../../contracts/webhooks';
import type { Db } from '../../db/client';
import { events, webhookDeliveries } from '../../db/schema';
import { insertEvents, newEvent } from '../../events/events';
import { conflict, notFound } from '../../lib/errors';
import { limitOn } from '../../lib/rate-limit';
import { inTransaction } from '../../lib/transaction';
import { loadOwnedEndpoint } from './endpoints-service';

/**
 * Resends and test events each make an outside call to a URL the user chose: a few a minute is
 * plenty for a person debugging a receiver, and bounds what one account can make this server send.
 */
export const WEBHOOK_SEND_LIMIT = { points: 20, durationSeconds: 10 * 60 };
const sendLimitMessage = (wait: string) => `Too many test or resent webhooks in a short time. Please wait ${wait} and try again.`;

type AttemptLog = WebhookDelivery['attempts'];

export async function listDeliveries(db: Db, userId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  await loadOwnedEndpoint(db, userId, endpointId);
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map(({ delivery, eventType }) => ({
    id: delivery.id,
    eventId: delivery.eventId,
    eventType,
    status: delivery.status as WebhookDelivery['status'],
    createdAt: delivery.createdAt.toISOString(),
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    attempts: [...(delivery.attemptLog as AttemptLog)].reverse(),
  }));
}

async function enabledEndpoint(db: Db, userId: string, endpointId: string) {
  const endpoint = await loadOwnedEndpoint(db, userId, endpointId);
  if (endpoint.status !== 'enabled') throw conflict(WEBHOOK_MESSAGES.disabled);
  await limitOn(db, 'webhooks:send', { ...WEBHOOK_SEND_LIMIT, message: sendLimitMessage }).consume(userId);
  return endpoint;
}

export async function resendEvent(deps: { db: Db; now(): Date }, input: { userId: string; endpointId: string; eventId: string }): Promise<{ deliveryId: string; eventId: string }> {
  await enabledEndpoint(deps.db, input.userId, input.endpointId);
  const [event] = await deps.db.select({ id: events.id }).from(events).where(and(eq(events.id, input.eventId), eq(events.userId, input.userId)));
  if (!event) throw notFound(WEBHOOK_MESSAGES.eventNotFound);
  const now = deps.now();
  const [delivery] = await deps.db
    .insert(webhookDeliveries)
    .values({ endpointId: input.endpointId, eventId: event.id, nextAttemptAt: now, createdAt: now })
    .returning({ id: webhookDeliveries.id });
  return { deliveryId: delivery!.id, eventId: event.id };
}

/** A `webhook.test` event for this endpoint alone: written already fanned out, with its one delivery. */
export async function sendTestEvent(deps: { db: Db; now(): Date }, input: { userId: string; endpointId: string }): Promise<{ deliveryId: string; eventId: string }> {
  const endpoint = await enabledEndpoint(deps.db, input.userId, input.endpointId);
  const now = deps.now();
  const event = newEvent(input.userId, TEST_EVENT_TYPE, { message: 'A test event from PayWeave: your endpoint receives and verifies webhooks.', endpointId: endpoint.id }, now);
  return inTransaction(deps.db, async (tx) => {
    await insertEvents(tx, [event]);
    await tx.update(events).set({ fannedOutAt: now }).where(eq(events.id, event.id));
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ endpointId: endpoint.id, eventId: event.id, nextAttemptAt: now, createdAt: now })
      .returning({ id: webhookDeliveries.id });
    return { deliveryId: delivery!.id, eventId: event.id };
  });
}
