// What each event's `data` is (docs/rules.md#webhooks): the object as the API's own answers show
// it, so a receiver reuses the types it already has. Described in the OpenAPI document's
// `webhooks` (OpenAPI 3.1), one entry per event type.
import { z } from 'zod';
import { cardControlsResponse } from './card-controls';
import { card, cardTransaction, purchaseResponse } from './cards';
import { cashout } from './cashouts';
import { combine, issuedCard } from './combines';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from './webhooks';

const rebate = z.object({
  id: z.string(),
  combineId: z.string(),
  sourceId: z.string(),
  bnplFeeMaxCents: z.number().int(),
  bnplFeeActualCents: z.number().int(),
  rebateAmountCents: z.number().int(),
  status: z.enum(['pending', 'processed']),
  payoutMethod: z.string().nullable(),
  processedAt: z.string().nullable(),
});

export const EVENT_DATA: Record<EventType | typeof TEST_EVENT_TYPE, { summary: string; data: z.ZodType }> = {
  'card.created': { summary: 'A card was issued by a completed combine', data: issuedCard },
  'card.authorization.approved': { summary: 'A purchase on a card was approved', data: purchaseResponse },
  'card.authorization.declined': {
    summary: 'A purchase on a card was declined; `transaction.declineReason` says why',
    data: z.object({ transaction: cardTransaction }),
  },
  'card.frozen': { summary: 'A card was frozen', data: card },
  'card.unfrozen': { summary: 'A card was unfrozen', data: card },
  'card.controls.updated': { summary: "A card's spend controls were changed", data: cardControlsResponse },
  'cashout.created': { summary: 'A cash-out was made (its payout is on its way)', data: cashout },
  'cashout.paid': { summary: "A cash-out's payout was confirmed by the payout provider", data: cashout },
  'combine.completed': { summary: 'A combine was completed (its card: card.created)', data: combine },
  'rebate.paid': { summary: 'A BNPL rebate was paid to the payout method', data: rebate },
  [TEST_EVENT_TYPE]: { summary: '"Send test event": sent to the one endpoint asked', data: z.object({ message: z.string(), endpointId: z.string() }) },
};

const header = (name: string, description: string) => ({ in: 'header', name, required: true, description, schema: { type: 'string' } });

/** The OpenAPI 3.1 `webhooks` object: each event type as the POST a receiver gets. */
export function webhooksDocument(): Record<string, unknown> {
  const types = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;
  return Object.fromEntries(
    types.map((type) => {
      const { summary, data } = EVENT_DATA[type];
      const payload = z.object({ id: z.string(), type: z.literal(type), timestamp: z.string(), data });
      return [
        type,
        {
          post: {
            operationId: `webhook_${type.replaceAll('.', '_')}`,
            summary,
            description: 'Signed per Standard Webhooks: verify the body with the endpoint secret before trusting it (docs/api.md#webhooks).',
            tags: ['webhooks'],
            security: [],
            parameters: [
              header('webhook-id', 'The event id: the same on every attempt and resend; deduplicate on it'),
              header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed'),
              header('webhook-signature', 'Space-separated `v1,<base64>` signatures, two during the 24 h after a secret rotation'),
            ],
            requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(payload, { io: 'output', unrepresentable: 'any' }) } } },
            responses: {
              '200': { description: 'Any 2xx within 15 s is a delivery' },
              '410': { description: 'Gone: the endpoint is disabled and gets nothing more' },
            },
          },
        },
      ];
    }),
  );
}
