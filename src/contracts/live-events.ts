// GET /api/events/stream: the signed-in user's activity as Server-Sent Events
// (docs/rules.md#live-activity). Each message is `id: <event id>` and one line of `data:` holding
// this JSON; a page that reconnects sends the last id it saw as Last-Event-ID.
import { z } from 'zod';

export const liveEvent = z
  .object({
    id: z.string(),
    type: z.string(),
    createdAt: z.string(),
    data: z.unknown(),
  })
  .describe('One event: the same id, type, time and object a webhook delivery carries');
export type LiveEvent = z.infer<typeof liveEvent>;

export const liveEventsHeaders = z.object({
  'last-event-id': z.string().max(100).optional().describe('The id of the last event this page received; what came after it is sent first'),
});

/** The most streams one user may hold open on one instance (a page per tab). */
export const MAX_STREAMS_PER_USER = 10;
