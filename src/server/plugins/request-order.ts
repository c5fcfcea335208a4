// The API's one request order and the contract it implies (docs/architecture.md, "Request
// order"). For a request that reaches a route:
//
//   1. 401 unauthorized   a session-only operation without a live session, whatever the body,
//                         query or headers hold (a stranger learns nothing about the forms);
//   2. 403 csrf_failed    a state-changing request from another site;
//      429                an address this instance refused on the operation's per-IP limit
//                         (route config `perIpLimit`), while that refusal lasts (decision 132);
//      503                an operation that checks or sets a password (route config
//                         `hashesPassword`) while the argon2id pool would refuse it anyway:
//                         decided before the body is read (decision 131);
//                         either refusal, repeated before the client's Retry-After, is sent
//                         after a second (decision 137);
//   3. 415                a body that is not application/json (Fastify's body parsing);
//   4. 400                the body, query, path or headers break their (strict) schemas;
//   5. the handler:       rate limits (429), then the operation's own refusals (403/404/409/...).
//
// Before all of them the router answers unknown paths (404) and known paths with another
// method (405 with Allow; plugins/errors.ts).
//
// Which operations are session-only is said once, by the route's OpenAPI `security`: every /api
// route is session-only unless it declares `security: []` (public) or `[{}, {session: []}]`
// (either). The same declaration is what the document publishes, so the two cannot disagree.
// The hook below also gives every /api route what the plumbing can answer on its behalf (the
// statuses above, 413, 414 and 503) so the document lists every status the server can send.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { errorResponse } from '../../contracts/errors';
import { ARGON2_BUSY_RETRY_AFTER_SECONDS, argon2Busy, argon2Pool } from '../lib/argon2-pool';
import { RefusalMemory, sendRefusal } from '../lib/repeated-refusals';
import { AppError, unauthorized } from '../lib/errors';
import { existingLimit } from '../lib/rate-limit';
import { strictSchema } from '../lib/strict-schema';
import { CSRF_MESSAGE, isCrossSite } from './security';

export type SecurityRequirement = Record<string, string[]>;
export const SESSION_ONLY: SecurityRequirement[] = [{ session: [] }];
export const PUBLIC: SecurityRequirement[] = [];
/** Signed in or out, the answer differs (e.g. GET /api/session). */
export const SESSION_OPTIONAL: SecurityRequirement[] = [{}, { session: [] }];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation runs argon2id (a password checked or set): refused early when the pool is full. */
    hashesPassword?: boolean;
    /**
     * The name of the limit the operation counts every attempt from an address against (e.g.
     * 'login:ip'): an address this instance refused is refused again before its body is read.
     */
    perIpLimit?: string;
  }
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type RouteSchema = {
  security?: SecurityRequirement[];
  querystring?: unknown;
  params?: unknown;
  body?: unknown;
  headers?: unknown;
  response?: Record<string | number, unknown>;
  operationId?: string;
  hide?: boolean;
};

/** Whether the declared security admits no anonymous caller. */
export function requiresSession(security: SecurityRequirement[] | undefined): boolean {
  if (!security || security.length === 0) return false;
  return !security.some((requirement) => Object.keys(requirement).length === 0);
}

/** GET /combines/:id/sources/:sourceId → getCombinesByIdSourcesBySourceId (stable, unique per method and path). */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function isApiRoute(url: string | undefined): boolean {
  return url !== undefined && url.startsWith('/api/');
}

function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

export const requestOrderPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      if (!isApiRoute(route.url)) return;
      const schema = (route.schema ?? {}) as RouteSchema;
      if (schema.hide) return;
      route.schema = schema as RouteOptions['schema'];
      schema.security ??= SESSION_ONLY;
      // No query parameter or field is silently ignored: unknown ones answer 400 naming them,
      // and an operation without query parameters takes none.
      schema.querystring = schema.querystring ? strictSchema(schema.querystring as z.ZodType) : z.strictObject({});
      if (schema.body) schema.body = strictSchema(schema.body as z.ZodType);
      const methods = methodsOf(route);
      if (methods.length === 1 && !methods.includes('HEAD')) schema.operationId ??= operationIdFor(methods[0]!, route.url);

      const added: Record<number, unknown> = { 400: errorResponse, 503: errorResponse };
      if (requiresSession(schema.security)) added[401] = errorResponse;
      if (methods.some((method) => BODY_METHODS.has(method))) {
        added[403] = errorResponse;
        added[413] = errorResponse;
        added[415] = errorResponse;
      }
      if (schema.params) added[414] = errorResponse;
      const headers = schema.headers as { shape?: Record<string, unknown> } | undefined;
      if (headers?.shape && 'idempotency-key' in headers.shape) {
        added[409] = errorResponse; // the same key still being processed
        added[422] = errorResponse; // the same key with another request
      }
      const config = route.config as { rateLimit?: unknown; perIpLimit?: string } | undefined;
      if (config?.rateLimit || config?.perIpLimit) added[429] = errorResponse;
      schema.response = { ...added, ...schema.response };
    });

    // Addresses the busy argon2id pool turned away, and until when they were told to wait.
    const busyPoolRefusals = new RefusalMemory();

    // Synchronous, like every hook that all requests pass: no promise per request.
    app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
      // Fastify builds routeOptions anew at each read: read it once.
      const route = request.routeOptions;
      if (!isApiRoute(route.url)) return done();
      const security = (route.schema as RouteSchema | undefined)?.security;
      if (requiresSession(security) && !request.auth) return done(unauthorized());
      if (isCrossSite(request)) return done(new AppError(403, 'csrf_failed', CSRF_MESSAGE));
      const { perIpLimit, hashesPassword } = route.config;
      // An address already refused on this limit came back before its Retry-After: held a moment
      // (decision 137).
      const refused = perIpLimit ? existingLimit(app.db, perIpLimit)?.refusedNow(request.ip) : undefined;
      if (refused) return sendRefusal(true, () => done(refused));
      if (hashesPassword && argon2Pool().refusesNow(request.ip)) {
        const busy = argon2Busy();
        return sendRefusal(busyPoolRefusals.refused(request.ip, busy.retryAfterSeconds ?? ARGON2_BUSY_RETRY_AFTER_SECONDS), () => done(busy));
      }
      done();
    });
  },
  { name: 'payweave-request-order', dependencies: ['payweave-session'] },
);
