// Events and signed webhooks (docs/rules.md#webhooks, decision 191): the endpoints API under
// /api/webhooks and the events it delivers. An event's `data` is the object as the API shows it
// elsewhere (the cash-out, the card, the combine…), never a card number or CVV.
import { z } from 'zod';
import { isoDateTime } from './common';

export const EVENT_TYPES = [
  'card.created',
  'card.authorization.approved',
  'card.authorization.declined',
  'card.frozen',
  'card.unfrozen',
  'card.controls.updated',
  'cashout.created',
  'cashout.paid',
  'combine.completed',
  'rebate.paid',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only by "Send test event", to the one endpoint asked. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const MAX_WEBHOOK_ENDPOINTS = 5;
export const WEBHOOK_MESSAGES = {
  limit: `You can register up to ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one to add another.`,
  notFound: 'Webhook endpoint not found.',
  eventNotFound: 'Event not found.',
  disabled: 'This webhook endpoint is disabled. Delete it and add it again to receive webhooks.',
} as const;

/** The body of every delivery: Standard Webhooks' `type`, `timestamp` and `data`, with the event's id. */
export const webhookPayload = z.object({
  id: z.string().describe('The event id, also sent as webhook-id: receivers deduplicate on it'),
  type: z.string(),
  timestamp: isoDateTime,
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

export const createWebhookEndpointRequest = z.object({ url: z.string().max(2000) });
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequest>;

export const webhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(['enabled', 'disabled']),
  disabledReason: z.enum(['gone', 'failing_too_long']).nullable(),
  createdAt: isoDateTime,
  /** Until then the previous secret signs too (24 h after a rotation). */
  previousSecretValidUntil: isoDateTime.nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

/** The secret is in this answer only: it is never shown again. */
export const webhookEndpointWithSecret = webhookEndpoint.extend({ secret: z.string().describe('whsec_…: shown once') });
export const webhookEndpointList = z.object({ endpoints: z.array(webhookEndpoint) });

export const webhookAttempt = z.object({
  at: isoDateTime,
  status: z.number().int().nullable().describe('The HTTP status answered; null: no answer (timeout, refused address, connection failed)'),
  durationMs: z.number().int(),
  responseStart: z.string().describe("The answer's first bytes (at most 1 KiB)"),
  error: z.string().nullable(),
});
export const webhookDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  createdAt: isoDateTime,
  nextAttemptAt: isoDateTime.nullable(),
  attempts: z.array(webhookAttempt),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
export const webhookDeliveryList = z.object({ deliveries: z.array(webhookDelivery) });
export const listWebhookDeliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });

export const webhookEndpointParams = z.object({ id: z.string().uuid() });
export const resendWebhookParams = z.object({ id: z.string().uuid(), eventId: z.string().max(64) });
/** A delivery queued (a resend or a test event): it shows in the endpoint's log. */
export const webhookQueued = z.object({ deliveryId: z.string(), eventId: z.string() });
