// The OpenAPI document served at /api/openapi.json, built by @fastify/swagger from the routes'
// zod schemas (completed by plugins/request-order.ts) and finished here so that it tells a client
// the truth: OpenAPI 3.1 (so a nullable enum is `anyOf [enum, null]`, which a strict validator
// accepts), the error shape once as a component with its code enum, errors always as JSON (even
// where the success is CSV), a description for each status, and Retry-After and Idempotent-Replayed
// where they are sent.
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { webhooksDocument } from '../contracts/webhook-events';

const STATUS_DESCRIPTIONS: Record<string, string> = {
  400: 'Invalid request: a body, query, path or header that breaks the schema, or an unknown field or query parameter (named in the message)',
  401: 'Not signed in (checked before anything else about the request)',
  402: 'Declined by the card processor',
  403: 'Refused: a cross-site request (csrf_failed), or not allowed for this user (code says which)',
  404: 'Not found (or not this user’s)',
  409: 'Conflicts with the current state (code says which)',
  413: 'The body is larger than 64 KB',
  414: 'A path parameter is too long',
  415: 'The body is not application/json',
  422: 'The Idempotency-Key was used for a different request',
  429: 'Too many attempts; retry after Retry-After seconds',
  501: 'Not available in live mode',
  503: 'Temporarily unavailable (database or password hashing busy, the payment partner did not answer, or the storage is full: storage_full); nothing was saved; retry after Retry-After seconds',
};

const RETRY_AFTER = {
  description: 'Seconds to wait before retrying',
  required: true,
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

// A replayed answer of a request with an Idempotency-Key says so (docs/api.md). What is replayed is
// what was stored with the key: a success, or a purchase's recorded decline (402).
const IDEMPOTENT_REPLAYED = {
  description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key; absent otherwise',
  required: false,
  schema: { type: 'string', const: 'true' },
};

type Media = { schema?: unknown };
type Response = { description?: string; content?: Record<string, Media>; headers?: Record<string, unknown> };
type Parameter = { in?: string; name?: string; required?: boolean };
type Operation = { parameters?: Parameter[]; responses?: Record<string, Response> };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> }; webhooks?: Record<string, unknown> };

/** The finishing pass over the whole document (see the top of this file). */
export function finishDocument(document: Document): Document {
  // Schemas with an id are emitted twice (as read and as written); no request uses the error's.
  delete document.components?.schemas?.ErrorInput;
  // A component's `$id: '#/components/schemas/Error'` is not a valid JSON Schema 2020-12 id (no
  // fragment allowed), and its `$schema` only repeats the document's dialect: the name is its id.
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if (schema && typeof schema === 'object') {
      delete (schema as { $id?: unknown }).$id;
      delete (schema as { $schema?: unknown }).$schema;
    }
  }
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const idempotent = operation.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key' && p.required) ?? false;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const code = Number(status);
        if (code >= 400 && response.content) {
          // An error is JSON whatever the success is (GET /api/history.csv answers text/csv).
          const first = Object.values(response.content)[0];
          response.content = { 'application/json': first ?? {} };
        }
        if (response.description === 'Default Response') {
          response.description = STATUS_DESCRIPTIONS[status] ?? (code < 300 ? 'Success' : 'Error');
        }
        if (code === 429 || code === 503) response.headers = { 'Retry-After': RETRY_AFTER, ...response.headers };
        if (idempotent && ((code >= 200 && code < 300) || code === 402)) response.headers = { 'Idempotent-Replayed': IDEMPOTENT_REPLAYED, ...response.headers };
      }
    }
  }
  // What a webhook endpoint receives, one entry per event type (OpenAPI 3.1; docs/rules.md#webhooks).
  document.webhooks = webhooksDocument();
  return document;
}

/** Every operation's tag, declared once with what it groups (the reference page's sections). */
const TAGS = [
  { name: 'auth', description: 'Sign-up, sign-in (with two-factor), sign-out, password reset and re-authentication' },
  { name: 'me', description: 'The signed-in user: profile, e-mail, password, two-factor sign-in, session' },
  { name: 'combines', description: 'Combining payment sources into one card: drafts, sources, quote, completion' },
  { name: 'cards', description: 'Virtual cards: list, details, reveal, freeze, purchases, transactions' },
  { name: 'cashouts', description: 'Cashing a card’s balance out to a payout method (Idempotency-Key required)' },
  { name: 'payout-methods', description: 'Where cash-outs and rebates are paid' },
  { name: 'subscription', description: 'Plans, upgrades and cancellation' },
  { name: 'dashboard', description: 'The dashboard’s figures' },
  { name: 'history', description: 'Transaction history as CSV' },
  { name: 'webhooks', description: 'Signed webhooks: endpoints, their delivery log, resend and test events; the events themselves under `webhooks`' },
  { name: 'events', description: 'The signed-in user’s activity, live (Server-Sent Events)' },
  { name: 'system', description: 'Health, configuration, promotion, support' },
  { name: 'dev', description: 'Demo-mode helpers (the outgoing mailbox)' },
];

export const swaggerOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'PayWeave API',
      version: '1.0.0',
      description:
        'Money in integer cents. Errors are `{error: {code, message, details?}}` with `code` from a closed list. ' +
        'Conventions (sessions, CSRF, idempotency, errors, pagination, unknown parameters): docs/api.md.',
    },
    tags: TAGS,
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pw_session' } } },
  },
  transform: jsonSchemaTransform,
  transformObject: (input) => finishDocument(jsonSchemaTransformObject(input) as Document) as ReturnType<typeof jsonSchemaTransformObject>,
};

/**
 * The reference page at /api/docs (decision 120): Swagger UI's own files, served by us from the
 * package (no CDN), under the app's CSP unchanged: the page runs only external scripts from our
 * origin, never asks a validator elsewhere, and "Try it out" calls this same origin.
 */
export const swaggerUiOptions: FastifySwaggerUiOptions = {
  routePrefix: '/api/docs',
  validatorUrl: false,
  theme: { title: 'PayWeave API reference' },
  uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, displayOperationId: true, tryItOutEnabled: false },
};
