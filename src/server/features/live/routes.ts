// GET /api/events/stream: the signed-in user's activity, live (docs/rules.md#live-activity). The
// answer is a Server-Sent Events stream that stays open: the feed (event-feed.ts) writes each new
// event of this user to it, and closes it when the session ends. A comment line every 15 s keeps
// proxies from closing a quiet stream.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import { liveEventsHeaders, MAX_STREAMS_PER_USER, type LiveEvent } from '../../../contracts/live-events';
import { AppError } from '../../lib/errors';
import { requireUser } from '../../plugins/session';
import type { EventFeed } from './event-feed';

const KEEP_ALIVE_MS = 15_000;

/**
 * One event as an SSE message: its id (for Last-Event-ID) and its JSON, type included, on one
 * line. Unnamed, so a page's one `message` listener hears every type, new ones too.
 */
export function sseMessage(event: LiveEvent): string {
  return `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function liveRoutes(feed: EventFeed): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/events/stream',
      {
        schema: {
          tags: ['events'],
          summary: `The signed-in user's activity as Server-Sent Events (id, and the event as JSON: id, type, createdAt, data), open until the session ends; ${MAX_STREAMS_PER_USER} streams per user`,
          headers: liveEventsHeaders,
          produces: ['text/event-stream'],
          response: { 200: z.string().describe('text/event-stream'), 401: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const { userId, sessionId } = requireUser(request);
        if (feed.streamsOf(userId) >= MAX_STREAMS_PER_USER) {
          throw new AppError(429, 'rate_limited', 'Too many live activity streams are open. Close a tab and try again.', undefined, 30);
        }
        const raw = reply.raw;
        let ended = false;
        raw.on('close', () => {
          ended = true;
        });
        reply.hijack();
        // The headers fastify gathered (the security plugin's), then the stream's own.
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
        raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
        raw.write('retry: 3000\n\n');
        const unsubscribe = await feed.subscribe(
          { userId, sessionId, send: (event) => raw.write(sseMessage(event)), end: () => raw.end() },
          request.headers['last-event-id'] ?? null,
        );
        const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
        keepAlive.unref();
        const stop = () => {
          clearInterval(keepAlive);
          unsubscribe();
        };
        if (ended) stop();
        else raw.on('close', stop);
      },
    );
  };
}
