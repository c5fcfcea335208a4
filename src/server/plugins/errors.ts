import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '../../contracts/errors';
import { embeddedPaths } from '../db/embedded-postgres';
import { AppError, OutsideSystemError } from '../lib/errors';
import { isStorageFullError, StorageHealth, writeProbe } from '../lib/storage-health';
import { unknownKeysOf } from '../lib/strict-schema';
import { pgCode } from '../lib/transaction';
import { setSecurityHeaders } from './security';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';
export const SERVICE_UNAVAILABLE_MESSAGE = 'PayWeave is temporarily unavailable. Please try again in a moment.';
export const PARTNER_UNAVAILABLE_MESSAGE = 'Our payment partner did not answer in time. Nothing was saved; please try again in a moment.';
export const STORAGE_FULL_MESSAGE = 'PayWeave cannot save anything right now: its storage is full. Nothing was changed; please try again later.';
/** Space is freed by a person, not in a second: clients are asked to come back in half a minute. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the database can write now: GET /api/health, and the refusal of writes on a full disk (lib/storage-health.ts). */
    storage: StorageHealth;
  }
}

export const storageFull = () => new AppError(503, 'storage_full', STORAGE_FULL_MESSAGE, undefined, STORAGE_FULL_RETRY_AFTER_SECONDS);

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// Connection-level failures: the database went away (restart, pg_terminate_backend, network).
// The transaction did not commit, so the client may retry with the same idempotency key.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '40001', // serialization_failure: retried inside services; if it escapes, ask the client to retry
  '40P01', // deadlock_detected
  '57014', // query_canceled (statement timeout)
  // read_only_sql_transaction: the connection reached a standby, as in the seconds of a failover
  // before the proxy in front of the cluster moves to the new primary (tests/ha). Nothing was
  // written; the same request succeeds once it reaches the primary.
  '25006',
]);

function isConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; syscall?: unknown };
    if (typeof candidate.code === 'string' && CONNECTION_ERROR_CODES.has(candidate.code)) return true;
    // The embedded PostgreSQL's socket file is gone while the postmaster is down (between a crash
    // and its restart by the app, or while it cannot start).
    if (candidate.code === 'ENOENT' && candidate.syscall === 'connect') return true;
    if (typeof candidate.message === 'string' && /Connection terminated|terminating connection|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(candidate.message)) {
      return true;
    }
    current = candidate.cause;
  }
  return false;
}

/**
 * The database's own account of an error, for the log: PostgreSQL's message, SQLSTATE and the rest
 * of its report (or the socket's error), found through the query wrapper's `cause`. The wrapper's
 * message holds the whole statement and its parameters; this holds what went wrong. Undefined for
 * an error that no query wrapped and that carries no code.
 */
export function databaseErrorOf(error: unknown): Record<string, unknown> | undefined {
  let current: unknown = error;
  let coded: Record<string, unknown> | undefined;
  let deepest: Record<string, unknown> | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as Record<string, unknown>;
    if (typeof candidate.message === 'string') deepest = candidate;
    if (typeof candidate.code === 'string' && typeof candidate.message === 'string') coded = candidate;
    current = candidate.cause;
  }
  const found = coded ?? (deepest !== error ? deepest : undefined);
  if (!found) return undefined;
  const fields = ['code', 'message', 'severity', 'detail', 'hint', 'schema', 'table', 'column', 'constraint', 'routine', 'syscall', 'address'];
  return Object.fromEntries(fields.filter((field) => found[field] !== undefined && found[field] !== null).map((field) => [field, found[field]]));
}

/** Whether `error` came from a query: Drizzle's wrapper (`query`) or PostgreSQL's report (`severity`). */
function fromDatabase(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as { query?: unknown; severity?: unknown; cause?: unknown };
    if (typeof candidate.query === 'string' || typeof candidate.severity === 'string') return true;
    current = candidate.cause;
  }
  return false;
}

export const UNSTORABLE_TEXT_MESSAGE = 'The request contains characters that are not allowed.';

// PostgreSQL stores neither NUL in text or jsonb nor an unpaired UTF-16 surrogate in jsonb. Such a
// string is refused at the edge (400) instead of failing deep in a query (500). The error-code
// check in the handler below is the backstop for text that arrives another way.
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);
const MAX_BODY_DEPTH = 64;

/** What in a parsed body PostgreSQL could not store, or a nesting deeper than any form sends. */
function unstorable(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value) ? UNSTORABLE_TEXT_MESSAGE : null;
  if (value === null || typeof value !== 'object') return null;
  // Bodies are at most 64 KB, so the walk is short; the depth cap keeps its recursion bounded.
  if (depth > MAX_BODY_DEPTH) return 'The request is nested too deeply.';
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    if (typeof key === 'string' && UNSTORABLE_TEXT.test(key)) return UNSTORABLE_TEXT_MESSAGE;
    const problem = unstorable(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/**
 * Bodies are strict (docs/api.md), so an operation that defines none takes none: a field it was
 * sent is unknown, and so is any other JSON. An empty object passes, as what a client sends for
 * "nothing".
 */
function bodyNotTaken(request: FastifyRequest): string | null {
  if (request.routeOptions.schema?.body !== undefined) return null;
  const body = request.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const fields = Object.keys(body);
    if (fields.length === 0) return null;
    // Named back only when they are plain names: the message must not echo whatever was sent.
    if (fields.length <= 5 && fields.every((field) => /^[\w.-]{1,40}$/.test(field))) return `Unknown field${fields.length > 1 ? 's' : ''}: ${fields.join(', ')}.`;
  }
  return 'This request takes no body.';
}

function firstIssueMessage(error: FastifyError): string {
  const validation = error.validation as Array<{ message?: string; instancePath?: string; params?: { issue?: { message?: string } } }> | undefined;
  const first = validation?.[0];
  const message = first?.params?.issue?.message ?? first?.message;
  return message && !/^(Invalid input|Required)/.test(message) ? message : 'The request is not valid.';
}

/**
 * Fastify's `frameworkErrors` option: the router's own refusals (a URL that does not decode, a
 * path parameter over maxParamLength) happen before any hook, so they would otherwise answer in
 * Fastify's shape and without the security headers.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  setSecurityHeaders(request, reply);
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const body = tooLong ? URI_TOO_LONG : ({ error: { code: 'bad_request', message: 'The address is not valid.' } } satisfies ErrorResponse);
  return reply.status(tooLong ? 414 : 400).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** The router's longest path parameter (app.ts); a longer one answers 414. */
export const MAX_PARAM_LENGTH = 200;
const URI_TOO_LONG = { error: { code: 'uri_too_long', message: 'The address is too long.' } } satisfies ErrorResponse;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The methods a route answers on this concrete path (the SPA's catch-all `GET /*` is not one). */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  return METHODS.filter((method) => {
    const route = app.findRoute({ method, url: path });
    return route !== null && route.params['*'] === undefined;
  });
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  const storage = new StorageHealth({
    walDir: app.database.embedded ? path.join(embeddedPaths(app.config.dataDir).clusterDir, 'pg_wal') : undefined,
    probe: () => writeProbe(app.db),
    onChange: (low) => {
      if (low) {
        app.log.error(
          { path: low.path, freeBytes: low.freeBytes, reserveBytes: low.reserveBytes },
          `Storage full: ${(low.freeBytes / 2 ** 20).toFixed(1)} MB free where PostgreSQL writes its WAL (${low.path}); PayWeave keeps ${low.reserveBytes / 2 ** 20} MB free ` +
            'so that PostgreSQL never stops, and refuses every change (503 storage_full) until space is freed. Reads go on.',
        );
      } else {
        app.log.warn(`Storage has room again where PostgreSQL writes its WAL; changes are accepted again.`);
      }
    },
  });
  app.decorate('storage', storage);

  app.addHook('preValidation', (request, _reply, done) => {
    const problem = request.body === undefined ? null : (bodyNotTaken(request) ?? unstorable(request.body));
    done(problem ? new AppError(400, 'validation_error', problem) : undefined);
  });

  // A change asked for while the WAL's disk is below its reserve is refused before it reaches
  // PostgreSQL, which would stop altogether when its WAL could not grow (lib/storage-health.ts).
  app.addHook('preHandler', (request, _reply, done) => {
    done(WRITE_METHODS.has(request.method) && request.url.startsWith('/api/') && storage.lowSpace() ? storageFull() : undefined);
  });
  // A change that was answered with success was written: the database can write.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode < 300 && WRITE_METHODS.has(request.method) && request.url.startsWith('/api/')) storage.noteWriteSucceeded();
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode === 429 || error.statusCode === 503) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 60))));
      return reply.status(error.statusCode).send({ error: { code: error.code, message: error.message, details: error.details } });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const unknown = unknownKeysOf(error.validation);
      const what = error.validationContext === 'querystring' ? 'query parameter' : 'field';
      return reply.status(400).send({
        error: {
          code: 'validation_error',
          message: unknown ? `Unknown ${what}${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.` : firstIssueMessage(error),
          details: error.validation.map((v) => ({ path: v.instancePath, message: v.message })),
        },
      } satisfies ErrorResponse);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ error: { code: 'internal_error', message: GENERIC_500 } } satisfies ErrorResponse);
    }
    const status = error.statusCode ?? 500;
    if (status < 500 && status >= 400) {
      const byCode: Record<string, [ErrorCode, string]> = {
        FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request is too large.'],
        FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the request as JSON (Content-Type: application/json).'],
        FST_ERR_CTP_EMPTY_JSON_BODY: ['validation_error', 'The request body is empty.'],
        FST_ERR_CTP_INVALID_JSON_BODY: ['validation_error', 'The request body is not valid JSON.'],
      };
      const [code, message]: [ErrorCode, string] = byCode[error.code] ?? [status === 404 ? 'not_found' : 'bad_request', status === 400 && /JSON/i.test(error.message) ? 'The request body is not valid JSON.' : 'The request is not valid.'];
      return reply.status(status).send({ error: { code, message } });
    }
    if (UNSTORABLE_TEXT_CODES.has(pgCode(error) ?? '')) {
      return reply.status(400).send({ error: { code: 'validation_error', message: UNSTORABLE_TEXT_MESSAGE } } satisfies ErrorResponse);
    }
    if (error instanceof OutsideSystemError) {
      // The card number and CVV are never in these messages (the adapters put only the operation in them).
      request.log.warn({ err: { message: error.message, system: error.system } }, 'outside system unavailable');
      reply.header('retry-after', '5');
      return reply.status(503).send({ error: { code: 'service_unavailable', message: PARTNER_UNAVAILABLE_MESSAGE } } satisfies ErrorResponse);
    }
    if (isStorageFullError(error)) {
      storage.noteWriteFailed();
      request.log.warn({ database: databaseErrorOf(error) ?? { message: error.message } }, 'storage full: nothing was saved');
      return sendStorageFull(reply);
    }
    if (isConnectionError(error)) {
      // The database is away because its disk is full (it stopped when its WAL could not grow): a
      // change gets the answer of a refused write, which says what is wrong; a read the usual 503.
      if (WRITE_METHODS.has(request.method) && storage.lowSpace()) {
        request.log.warn({ database: databaseErrorOf(error) ?? { message: error.message } }, 'database unavailable: storage full');
        return sendStorageFull(reply);
      }
      request.log.warn({ database: databaseErrorOf(error) ?? { message: error.message, code: error.code } }, 'database unavailable');
      reply.header('retry-after', '1');
      return reply.status(503).send({ error: { code: 'service_unavailable', message: SERVICE_UNAVAILABLE_MESSAGE } } satisfies ErrorResponse);
    }
    // A query's error also says, apart, what PostgreSQL said (its message and SQLSTATE).
    const database = fromDatabase(error) ? databaseErrorOf(error) : undefined;
    request.log.error(database ? { err: error, database } : { err: error }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'internal_error', message: GENERIC_500 } } satisfies ErrorResponse);
  });

  function sendStorageFull(reply: FastifyReply) {
    reply.header('retry-after', String(STORAGE_FULL_RETRY_AFTER_SECONDS));
    return reply.status(503).send({ error: { code: 'storage_full', message: STORAGE_FULL_MESSAGE } } satisfies ErrorResponse);
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // The router refuses an over-long parameter with 414 (frameworkErrors), except where the SPA's
    // catch-all GET takes the path instead and hands an API path here: the same answer for GET.
    if (path.startsWith('/api/') && path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH)) {
      return reply.status(414).send(URI_TOO_LONG);
    }
    // A path the API knows, asked with a method it does not take: 405 with what it does take.
    const allowed = path.startsWith('/api/') ? allowedMethods(app, path) : [];
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({ error: { code: 'method_not_allowed', message: `${request.method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.` } } satisfies ErrorResponse);
    }
    return reply.status(404).send({ error: { code: 'not_found', message: `No such endpoint: ${request.method} ${path}` } } satisfies ErrorResponse);
  });
});
