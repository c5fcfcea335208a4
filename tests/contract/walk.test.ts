// The contract walk: a property-based walk of every operation of the served
// OpenAPI document, signed in and signed out, with valid requests generated from the document's
// own request schemas and invalid ones (empty, unknown fields, wrong types, oversized, wrong
// content type, missing or malformed headers, unknown query parameters). Every answer must be a
// status the document lists for that operation, in the content type it lists, with a body that
// validates against the listed schema (ajv, JSON Schema 2020-12), and never a 5xx.
//
// The seed is fixed (CI replays the same walk); `CONTRACT_SEED=random` or `CONTRACT_SEED=<n>`
// walks elsewhere, `CONTRACT_RUNS=<n>` walks longer. A mismatch is printed as a curl line to
// replay against a server started with `npm run dev` (the cookie is the walk's own session: sign
// in first and put yours in its place).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, createCard, registerUser, startCombine, TEST_PASSWORD, TEST_VISA, type ApiUser } from '../helpers/api-client';
import { arbitraryFor, breakBody, injectOperation, operationsOf, satisfies, seededRandom, serialiseBody, WRONG_CONTENT_TYPES, type FieldArbitraries, type Operation } from '../helpers/openapi-fuzz';
import { createSession } from '../../src/server/plugins/session';
import { existingLimit } from '../../src/server/lib/rate-limit';
import { createTestApp, type TestApp } from '../helpers/test-app';

const seedSetting = process.env.CONTRACT_SEED;
const SEED = seedSetting === undefined || seedSetting === '' ? 20_261_125 : seedSetting === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(seedSetting);
const RUNS = Number(process.env.CONTRACT_RUNS ?? 2_500);
const BODY_LIMIT_BYTES = 64 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

const VARIANTS = ['valid', 'valid', 'valid', 'empty', 'unknown-field', 'wrong-type', 'oversized', 'wrong-content-type', 'missing-header', 'bad-header', 'unknown-query', 'bad-query', 'bad-path', 'cross-site'] as const;
/** Path values that are not what the parameter's schema allows (the last one too long for the router). */
const BAD_PATH_VALUES = ['not-a-uuid', '00000000-0000-0000-0000-00000000000g', '%20', 'x'.repeat(250)];
/** Session cookies that are not a live session: signed out is signed out, whatever the cookie says. */
const DEAD_COOKIES = ['pw_session=', 'pw_session=garbage', `pw_session=${'A'.repeat(43)}`, `pw_session=${'%'.repeat(300)}`];
type Variant = (typeof VARIANTS)[number];

type WalkRequest = {
  operation: string;
  variant: Variant;
  signedIn: boolean;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  remoteAddress: string;
  /** The status the request order decides, when the variant decides it (docs/architecture.md). */
  expectStatus?: number;
};

type World = {
  user: ApiUser;
  userId: string;
  cardId: string;
  /** Fully funded, so a quote and a completion can succeed (with `expected`). */
  draftId: string;
  expected: Record<string, number>;
  /** Short of a few dollars, so a valid source can be added; `sourceId` is one of its sources. */
  openDraftId: string;
  sourceId: string;
  /** Another user, whose fresh sessions the session-ending operations are sent with. */
  spareUserId: string;
};

/** Operations that end the session they are sent with (signing in again replaces it). */
// Operations that end the session they are sent with: signing out or in again, and every
// re-authentication, which rotates the session (docs/rules.md#sessions: a new token, the old one dead).
const SESSION_ENDING = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/login',
  'POST /api/auth/login/two-factor',
  'POST /api/auth/reauthenticate',
  'POST /api/auth/reauthenticate/passkey',
  'PUT /api/me/email',
  'PUT /api/me/password',
  'POST /api/me/two-factor/enable',
  'POST /api/me/two-factor/disable',
  'POST /api/me/two-factor/recovery-codes',
]);

const sessionOnly = (operation: Operation) => (operation.security ?? []).length > 0 && !(operation.security ?? []).some((s) => Object.keys(s).length === 0);
const keyOf = (operation: Operation) => `${operation.method} ${operation.path}`;

/** A curl line that replays the request against a local server. */
function curlLine(request: Pick<WalkRequest, 'method' | 'url' | 'headers' | 'payload'>, base = 'http://localhost:3000'): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -i', `-X ${request.method}`, quote(`${base}${request.url}`)];
  for (const [name, value] of Object.entries(request.headers)) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (request.payload !== undefined) {
    parts.push(request.payload.length > 2_000 ? `--data-binary @<(node -e ${quote(`process.stdout.write(${JSON.stringify(request.payload.slice(0, 40))}.padEnd(${request.payload.length}, 'x'))`)})` : `--data-raw ${quote(request.payload)}`);
  }
  return parts.join(' ');
}

describe('the contract walk', () => {
  let t: TestApp;
  let world: World;
  let operations: Operation[];
  let document: Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    ajv.addSchema(document, 'openapi.json');
    operations = operationsOf(document as Parameters<typeof operationsOf>[0]);
    const user = await registerUser(t.app);
    const created = await createCard(user, '40');
    if (created.statusCode !== 201) throw new Error(`card: ${created.body}`);
    const cardId = (created.json() as { card: { id: string } }).card.id;
    const added = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: '000123456789', routingNumber: '021000021' });
    if (added.statusCode !== 201) throw new Error(`payout method: ${added.body}`);
    const draft = await startCombine(user, '60', '0');
    if ((await addSource(user, draft.id, { chargeCents: draft.funding.suggestedChargeCents.card })).statusCode !== 201) throw new Error('source');
    const quote = await user.request('POST', `/api/combines/${draft.id}/quote`, { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' });
    const figures = quote.json() as { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
    const open = await openDraft(user);
    const spare = await registerUser(t.app);
    world = {
      userId: ((await user.request('GET', '/api/me')).json() as { id: string }).id,
      spareUserId: ((await spare.request('GET', '/api/me')).json() as { id: string }).id,
      user,
      cardId,
      draftId: draft.id,
      expected: { cardAmountCents: figures.cardAmountCents, totalChargedCents: figures.totalChargedCents, productFeeCents: figures.productFeeCents },
      openDraftId: open.draftId,
      sourceId: open.sourceId,
    };
  });
  afterAll(async () => t?.close());

  async function openDraft(user: ApiUser): Promise<{ draftId: string; sourceId: string }> {
    const draft = await startCombine(user, '60', '0');
    const source = await addSource(user, draft.id, { chargeCents: draft.funding.suggestedChargeCents.card - 500 });
    if (source.statusCode !== 201) throw new Error(`source: ${source.body}`);
    return { draftId: draft.id, sourceId: (source.json() as { sources: Array<{ id: string }> }).sources[0]!.id };
  }

  function validatorFor(operation: Operation, status: string, mediaType: string): ValidateFunction | undefined {
    const key = `${keyOf(operation)} ${status} ${mediaType}`;
    if (!validators.has(key)) {
      const pointer = ['paths', operation.path, operation.method.toLowerCase(), 'responses', status, 'content', mediaType, 'schema'].map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
      validators.set(key, ajv.compile({ $ref: `openapi.json#/${pointer}` }));
    }
    return validators.get(key);
  }

  /** Realistic field values, so valid requests reach the handlers' success paths. */
  function fieldArbitraries(): FieldArbitraries {
    return {
      email: fc.oneof(fc.constant(`walker-${randomUUID()}@example.com`), fc.emailAddress()),
      password: fc.constantFrom(TEST_PASSWORD, 'Wrong-Password-1', 'short'),
      confirmPassword: fc.constant(TEST_PASSWORD),
      currentPassword: fc.constantFrom('Wrong-Password-1', 'x'),
      newPassword: fc.constant('Another-Strong-Pass-7'),
      acceptTerms: fc.constant(true),
      baseInput: fc.constantFrom('100', '25.50', '0', '-5', 'abc'),
      bufferInput: fc.constantFrom('0', '10', '2.5'),
      provider: fc.constantFrom('visa', 'mastercard', 'klarna', 'affirm'),
      cardNumber: fc.constantFrom(TEST_VISA, '4111111111111111', '1234'),
      number: fc.constantFrom('4242 4242 4242 4242', '4111111111111111'),
      expMonth: fc.integer({ min: 1, max: 12 }),
      expYear: fc.constant(new Date().getUTCFullYear() + 2),
      expiry: fc.constantFrom('12/30', '01/20'),
      cvv: fc.constantFrom('123', '1234', '12'),
      name: fc.constant('Walk Tester'),
      merchant: fc.constantFrom('Walk Shop', 'Café ☕'),
      chargeCents: fc.constantFrom(100, 500, 20_000),
      amountCents: fc.integer({ min: 1, max: 5_000 }),
      // A card's spend controls (PUT /api/cards/{id}/controls): valid often enough to be saved.
      perTransactionCents: fc.option(fc.integer({ min: 1, max: 500_000 }), { nil: null }),
      perDayCents: fc.option(fc.integer({ min: 1, max: 500_000 }), { nil: null }),
      lifetimeCents: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 500_000 }), fc.constant(-5), fc.constant(1.5)),
      blockCategories: fc.constantFrom([], ['gambling'], ['travel', 'cash_like'], ['unknown']),
      allowOnlyCategories: fc.constantFrom([], [], ['groceries', 'other']),
      cardId: fc.constantFrom(world.cardId, randomUUID()),
      payoutMethod: fc.constant('ach'),
      message: fc.constant('Hello from the contract walk'),
      useBoost: fc.constant(false),
      creationFeeSourceIdx: fc.constant(-1),
      cardType: fc.constant('general'),
      expected: fc.constant(world.expected),
    };
  }

  function fillPath(operation: Operation, own: boolean, random: ReturnType<typeof seededRandom>): string {
    return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
      if (parameter?.schema.enum) return encodeURIComponent(String(random.pick(parameter.schema.enum)));
      if (!own) return randomUUID();
      if (operation.method === 'DELETE' && operation.path.startsWith('/api/combines')) return name === 'sourceId' ? world.sourceId : world.openDraftId;
      if (name === 'sourceId') return world.sourceId;
      if (operation.path.startsWith('/api/cards')) return world.cardId;
      return operation.path.includes('/sources') ? world.openDraftId : world.draftId;
    });
  }

  function queryFor(operation: Operation, variant: Variant, values: Record<string, unknown>): string {
    const parts: string[] = [];
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      const value = values[parameter.name];
      if (value !== undefined) parts.push(`${parameter.name}=${encodeURIComponent(String(value))}`);
    }
    if (variant === 'unknown-query') parts.push('colour=blue');
    if (variant === 'bad-query') {
      const first = operation.parameters.find((p) => p.in === 'query');
      parts.push(first ? `${first.name}=${encodeURIComponent('definitely not valid')}` : 'x=1');
    }
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  }

  /** Builds one request from fast-check's choices (the generator values come from the document). */
  function buildRequest(operation: Operation, variant: Variant, signedIn: boolean, body: unknown, query: Record<string, unknown>, seed: number, addressPool: number): WalkRequest {
    const random = seededRandom(seed);
    const takesBody = BODY_METHODS.has(operation.method);
    const keyParameter = operation.parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    const headers: Record<string, string> = {};
    if (signedIn) headers.cookie = world.user.cookie;
    else if (random.chance(0.3)) headers.cookie = random.pick(DEAD_COOKIES);
    if (keyParameter) headers['idempotency-key'] = randomUUID();
    let payload: string | undefined;
    let expectStatus: number | undefined;
    if (operation.body) {
      headers['content-type'] = 'application/json';
      payload = serialiseBody(body);
    }
    switch (variant) {
      case 'empty':
        if (takesBody && random.chance(0.5)) {
          delete headers['content-type'];
          payload = undefined;
        } else if (takesBody) {
          headers['content-type'] = 'application/json';
          payload = random.pick(['{}', '', 'null']);
        }
        break;
      case 'unknown-field':
        if (operation.body && typeof body === 'object' && body !== null && !Array.isArray(body)) {
          payload = serialiseBody({ ...(body as Record<string, unknown>), zzUnknownField: 1 });
          expectStatus = 400;
        }
        break;
      case 'wrong-type':
        if (operation.body) {
          const broken = breakBody(operation.body, body, { random, foreignIds: [randomUUID()], fieldExamples: {} });
          if (broken && !satisfies(operation.body, broken.body)) {
            payload = serialiseBody(broken.body);
            expectStatus = 400;
          }
        }
        break;
      case 'oversized':
        if (takesBody) {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT_BYTES + 10) });
          expectStatus = 413;
        }
        break;
      case 'wrong-content-type':
        if (takesBody) {
          headers['content-type'] = random.pick(WRONG_CONTENT_TYPES);
          payload = payload ?? 'a=1';
          expectStatus = 415;
        }
        break;
      case 'missing-header':
        if (keyParameter?.required) {
          delete headers['idempotency-key'];
          expectStatus = 400;
        }
        break;
      case 'bad-header':
        if (keyParameter) {
          headers['idempotency-key'] = random.pick(['short', 'x'.repeat(256), 'has space inside', 'caf\u00e9-key-123']);
          expectStatus = 400;
        }
        break;
      case 'unknown-query':
        expectStatus = 400;
        break;
      case 'bad-query':
        if (operation.parameters.some((p) => p.in === 'query' && (p.schema.enum || p.schema.type === 'integer' || p.schema.format === 'uuid'))) expectStatus = 400;
        break;
      case 'bad-path':
        if (operation.parameters.some((p) => p.in === 'path')) expectStatus = 400;
        break;
      case 'cross-site':
        if (takesBody) {
          headers.origin = 'https://evil.example';
          expectStatus = 403;
        }
        break;
      case 'valid':
        break;
    }
    // The request order (401 → 403 → 415/413 → 400) decides before the variant does.
    if (!signedIn && sessionOnly(operation)) expectStatus = 401;
    let path = fillPath(operation, random.chance(0.85), random);
    if (variant === 'bad-path' && expectStatus === 400) {
      const value = random.pick(BAD_PATH_VALUES);
      if (value.length > 200) expectStatus = 414;
      let replaced = false;
      path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
        if (replaced) return fillPath({ ...operation, path: `{${name}}` }, true, random);
        replaced = true;
        return value;
      });
    }
    const url = `${path}${queryFor(operation, variant, query)}`;
    // Mostly fresh addresses (per-address limits would otherwise answer most sign-ins 429), some shared.
    const remoteAddress = addressPool === 0 ? '10.21.0.1' : `10.21.${1 + (seed & 0xff)}.${1 + ((seed >>> 8) & 0x7f)}`;
    return { operation: keyOf(operation), variant, signedIn, method: operation.method, url, headers, payload, remoteAddress, expectStatus };
  }

  /** What is wrong with an answer, against the document (empty when nothing). */
  function problemsWith(operation: Operation, request: WalkRequest, response: { statusCode: number; headers: Record<string, unknown>; body: string }): string[] {
    const status = String(response.statusCode);
    const problems: string[] = [];
    if (response.statusCode >= 500 && response.statusCode !== 503) problems.push(`answered ${status}`);
    if (request.expectStatus !== undefined && response.statusCode !== request.expectStatus && response.statusCode !== 429) problems.push(`status ${status}, the request order says ${request.expectStatus}`);
    const documented = operation.responses[status];
    if (!documented) return [...problems, `status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const contentType = String(response.headers['content-type'] ?? '');
    const mediaType = contentType.split(';')[0]!.trim();
    const content = documented.content ?? {};
    if (Object.keys(content).length === 0) {
      if (response.body.length > 0) problems.push(`status ${status} is documented without content but has a ${contentType} body`);
      return problems;
    }
    if (!(mediaType in content)) return [...problems, `content type ${contentType || '(none)'} is not the documented ${Object.keys(content).join(', ')}`];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      if (header.required && response.headers[name.toLowerCase()] === undefined) problems.push(`required header ${name} missing`);
    }
    if (mediaType === 'application/json') {
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        return [...problems, 'body is not JSON'];
      }
      const validate = validatorFor(operation, status, mediaType);
      if (validate && !validate(body)) problems.push(`body breaks the documented schema: ${ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  it(`walks every operation signed in and out: documented status, content type and schema, no 5xx (seed ${SEED})`, async () => {
    expect(operations.length).toBeGreaterThan(40);
    const fields = fieldArbitraries();
    const bodyArbitraries = new Map(operations.map((operation) => [keyOf(operation), operation.body ? arbitraryFor(operation.body, fields) : fc.constant(undefined)]));
    const queryArbitraries = new Map(
      operations.map((operation) => {
        const query = operation.parameters.filter((p) => p.in === 'query');
        const model = Object.fromEntries(query.map((p) => [p.name, arbitraryFor(p.schema, fields, p.name)]));
        return [keyOf(operation), fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>];
      }),
    );
    const requestArbitrary = fc
      .record({ index: fc.nat({ max: operations.length - 1 }), variant: fc.constantFrom(...VARIANTS), signedIn: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }), seed: fc.nat(), addressPool: fc.nat({ max: 9 }) })
      .chain((choice) => {
        const operation = operations[choice.index]!;
        return fc.record({ body: bodyArbitraries.get(keyOf(operation))!, query: queryArbitraries.get(keyOf(operation))! }).map((values) => ({ ...choice, ...values }));
      });

    const failures = new Map<string, string>();
    const seen = new Map<string, Set<string>>();
    let sent = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (choice) => {
        const operation = operations[choice.index]!;
        const request = buildRequest(operation, choice.variant, choice.signedIn, choice.body, choice.query, choice.seed, choice.addressPool);
        // Signing out, or in again, ends the session it is sent with: give it a session of its own.
        if (SESSION_ENDING.has(request.operation) && request.signedIn) {
          request.headers.cookie = `pw_session=${(await createSession(t.app.db, { userId: world.spareUserId, remember: false, now: new Date() })).token}`;
        }
        // Deleting the world's drafts would leave the rest of the walk nothing to act on: give
        // each deletion a draft of its own.
        if (request.method === 'DELETE' && request.operation.startsWith('DELETE /api/combines') && request.url.includes(world.openDraftId)) {
          // The walk's own set-up, not a request of the walk: it does not count against the
          // world user's limits on drafts and card checks (decision 158).
          for (const name of ['money:draftCreation', 'money:cardCheck']) await existingLimit(t.app.db, name)?.reset(world.userId);
          const own = await openDraft(world.user);
          request.url = request.url.replace(world.openDraftId, own.draftId).replace(world.sourceId, own.sourceId);
        }
        const injected = { method: request.method, url: request.url, headers: request.headers, remoteAddress: request.remoteAddress, ...(request.payload !== undefined ? { payload: request.payload } : {}) };
        const response = await injectOperation(t.app, operation, injected);
        sent += 1;
        const statuses = seen.get(request.operation) ?? new Set<string>();
        statuses.add(String(response.statusCode));
        seen.set(request.operation, statuses);
        for (const problem of problemsWith(operation, request, response)) {
          const key = `${request.operation} ${response.statusCode} ${problem.slice(0, 80)}`;
          if (!failures.has(key)) {
            failures.set(key, `${request.operation} [${request.variant}, ${request.signedIn ? 'signed in' : 'signed out'}]: ${problem}\n    ${curlLine(request)}\n    → ${response.statusCode} ${response.body.slice(0, 300)}`);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const seconds = (Date.now() - started) / 1000;
    const coverage = [...seen.entries()].map(([name, statuses]) => `${name}: ${[...statuses].sort().join(',')}`).sort();
    console.info(`contract walk (CONTRACT_SEED=${SEED}): ${sent} requests over ${operations.length} operations in ${seconds.toFixed(1)} s\n  ${coverage.join('\n  ')}`);
    expect([...failures.values()], `CONTRACT_SEED=${SEED}\n${[...failures.values()].join('\n')}`).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    // Every operation was walked, and most answered a success, whose body was held to the document too.
    expect([...seen.keys()].sort()).toEqual(operations.map(keyOf).sort());
    const succeeded = [...seen.values()].filter((statuses) => [...statuses].some((status) => status.startsWith('2'))).length;
    expect(succeeded).toBeGreaterThanOrEqual(30);
  }, 240_000); // ~20-60 s on this shared machine; the limit only stops a hang
});
