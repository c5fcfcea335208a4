// Bad input: at least 2,000 malformed or hostile requests generated from the OpenAPI
// document, across every endpoint and method, sent as user B (with user A's ids where an id is
// asked for), signed out, or cross-site. Proves: no 5xx; every 4xx is {error: {code, message}};
// a state-changing request is never accepted; and afterwards every table is exactly as before.
//
// Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> npx vitest run tests/integration/fuzz.test.ts
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, createCard, PAYOUT_DETAILS, registerUser, startCombine, type ApiUser } from '../helpers/api-client';
import { checkLedger } from '../../src/server/ledger/check-ledger';
import { snapshotDatabase, type SnapshotExclusions } from '../helpers/db-snapshot';
import {
  HOSTILE_RAW_BODIES,
  HOSTILE_STRINGS,
  WRONG_CONTENT_TYPES,
  breakBody,
  describe as describeValue,
  exampleFor,
  injectOperation,
  operationsOf,
  satisfies,
  seededRandom,
  serialiseBody,
  type FuzzContext,
  type Operation,
  type Random,
} from '../helpers/openapi-fuzz';
import { createTestApp, type TestApp } from '../helpers/test-app';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_808);
const MIN_REQUESTS = 2_000;
const HUGE_BODY_BYTES = 10 * 1024 * 1024;

// What may legitimately change while the fuzzer runs, and why:
//  - rate_limit_counters: counting refused sign-in and password attempts is the point of the table;
//  - audit_log rows of refused attempts (wrong password, unknown e-mail for a reset): recording
//    them is required (ASVS 7.x), and they describe the refusal, not a change of state;
//  - sessions.last_seen_at: refreshed at most once a minute by any signed-in request;
//  - outbox rows to the support mailbox: anyone may write to support, hostile text included (it
//    goes out as plain text, with card numbers removed).
const EXCLUSIONS: SnapshotExclusions = {
  tables: ['rate_limit_counters'],
  columns: { sessions: ['last_seen_at'] },
  rowsWhere: {
    // A passkey ceremony's challenge: anyone may ask for one (it is what the sign-in page does);
    // it is single use, expires in 5 minutes and is purged (docs/decisions/090).
    passkey_challenges: "t.purpose = 'sign_in'",
    outbox: "t.to_address = 'support@payweave.example'",
    audit_log: "t.event in ('sign_in_failed', 'reauthentication_failed', 'password_change_failed', 'email_change_failed') or (t.event = 'password_reset_requested' and t.details->>'known' = 'false')",
  },
};

// Endpoints that need no session (everything else must answer 401 without one).
const PUBLIC_OPERATIONS = new Set([
  'GET /api/health',
  'GET /api/promo',
  'GET /api/config',
  'GET /api/dev/mailbox',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/login/two-factor/passkey',
  'POST /api/auth/login/two-factor/passkey/options',
  'POST /api/auth/logout',
  'POST /api/auth/passkey',
  'POST /api/auth/passkey/options',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'GET /api/session',
  'POST /api/support',
]);

// Operations that must refuse even a well-formed request from B, because of who B is: a wrong
// password, an unknown reset token, nothing of B's to act on (B holds no card, draft or payout
// method, and is on the Free plan), or an id (in the path or the body) that is A's or made up.
const REFUSED_WHEN_WELL_FORMED = new Set([
  'POST /api/auth/login',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'POST /api/auth/reauthenticate',
  'PUT /api/me/email',
  'PUT /api/me/password',
  'PUT /api/payout-methods/preferred',
  'DELETE /api/payout-methods/{method}',
  'POST /api/subscription/cancel',
  'POST /api/cashouts',
]);

// 2xx answers a non-GET may give to a hostile request without changing anything.
const HARMLESS_SUCCESS = new Set([
  'POST /api/auth/logout', // sent only without a valid session: nothing to end
  'POST /api/auth/passkey/options', // a sign-in challenge for whoever asks (see EXCLUSIONS)
  'POST /api/auth/password-reset', // the same 202 whether or not the e-mail exists (and none does)
  'POST /api/support', // queuing a message for support is the point (see EXCLUSIONS)
]);

type FuzzCase = {
  index: number;
  kind: string;
  operation: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress: string;
  /** An exact status the answer must have, when the defect decides it. */
  expectStatus?: number;
  expectCode?: string;
};

type World = {
  a: ApiUser;
  b: ApiUser;
  /** A's ids of every kind, plus made-up ones. */
  foreignIds: string[];
  /** Idempotency keys A has used. */
  foreignKeys: string[];
};

function keyOf(operation: Operation) {
  return `${operation.method} ${operation.path}`;
}

function fillPath(operation: Operation, random: Random, world: World, garbage: boolean): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    if (garbage) {
      const junk = random.pick([...HOSTILE_STRINGS, 'x'.repeat(250), '00000000-0000-0000-0000-00000000000g', `${randomUUIDFrom(random)}x`, ' ', '%', '..']);
      // Some junk cannot even be percent-encoded (a lone surrogate): send it replaced.
      return encodeURIComponent(junk.replace(/[\ud800-\udfff]/g, '?')) || '%20';
    }
    if (parameter?.schema.enum) return encodeURIComponent(String(random.pick(parameter.schema.enum)));
    return random.pick(world.foreignIds);
  });
}

function randomUUIDFrom(random: Random): string {
  const hex = () => random.int(16).toString(16);
  const block = (n: number) => Array.from({ length: n }, hex).join('');
  return `${block(8)}-${block(4)}-4${block(3)}-a${block(3)}-${block(12)}`;
}

function hostileQuery(operation: Operation, random: Random, world: World): string {
  const parts: string[] = [];
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    const choice = random.int(5);
    if (choice === 0) continue;
    const value =
      choice === 1 && parameter.schema.enum
        ? String(random.pick(parameter.schema.enum))
        : random.pick(['-1', '0', '101', '1.5', '1e309', 'abc', '', random.pick(HOSTILE_STRINGS).slice(0, 300), random.pick(world.foreignIds), '[object Object]']);
    parts.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '?'))}`);
    if (random.chance(0.2)) parts.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent('again')}`);
  }
  if (random.chance(0.3)) parts.push(`${random.pick(['__proto__[x]', 'constructor', 'status[]', 'q'])}=${encodeURIComponent(random.pick(HOSTILE_STRINGS).slice(0, 100).replace(/[\ud800-\udfff]/g, '?'))}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function hostileIdempotencyKey(random: Random, world: World): string {
  return random.pick([
    '',
    'short',
    ' '.repeat(20),
    'x'.repeat(256),
    'x'.repeat(20_000),
    "'; drop table idempotency_keys; --",
    'caf\u00e9-key-\u00ff\u00fe',
    random.pick(world.foreignKeys),
    random.pick(world.foreignKeys),
    randomUUID(),
  ]);
}

function buildCases(operations: Operation[], world: World, seed: number): FuzzCase[] {
  const random = seededRandom(seed);
  let operationName = '';
  const context: FuzzContext = {
    random,
    foreignIds: world.foreignIds,
    fieldExamples: {
      // A's real address only where it cannot change anything: signing in with a wrong password.
      // (A reset request for it would rightly write a token and an e-mail.)
      email: () =>
        random.pick([`nobody-${random.int(1e6)}@example.com`, "o'brien@example.com", 'UPPER.case+tag@Example.COM', ...(operationName === 'POST /api/auth/login' ? [world.a.email] : [])]),
      password: () => random.pick(['Wrong-Password-1', ...HOSTILE_STRINGS.filter((s) => s.length > 0 && s.length <= 1024)]),
      currentPassword: () => random.pick(['Wrong-Password-1', ...HOSTILE_STRINGS.filter((s) => s.length > 0 && s.length <= 1024)]),
      newPassword: () => 'Another-Strong-Pass-7',
      confirmPassword: () => 'Another-Strong-Pass-7',
      acceptTerms: () => true,
      token: () => random.pick(['A'.repeat(43), 'not-a-token', "' or 1=1 --", '\u0000', randomUUID()]),
      baseInput: () => '100',
      bufferInput: () => '0',
      provider: () => random.pick(['visa', 'klarna', 'affirm']),
      cardNumber: () => '4111111111111111',
      number: () => '4111 1111 1111 1111',
      expMonth: () => 12,
      expYear: () => new Date().getUTCFullYear() + 2,
      expiry: () => '12/30',
      cvv: () => '123',
      zip: () => '12345',
      name: () => 'Fuzz Tester',
      merchant: () => random.pick(['Fuzz Shop', ...HOSTILE_STRINGS.filter((s) => s.length > 0 && s.length <= 80)]),
      chargeCents: () => 1_000,
      amountCents: () => 100,
    },
  };
  const cases: FuzzCase[] = [];
  const hugeBody = Buffer.alloc(HUGE_BODY_BYTES, 'a');
  hugeBody.write('{"a":"', 0);
  hugeBody.write('"}', HUGE_BODY_BYTES - 2);

  const push = (fuzzCase: Omit<FuzzCase, 'index' | 'remoteAddress'>) => {
    cases.push({ ...fuzzCase, index: cases.length, remoteAddress: `10.${1 + random.int(250)}.${random.int(256)}.${1 + random.int(250)}` });
  };

  for (let round = 0; cases.length < MIN_REQUESTS || round < 3; round += 1) {
    for (const operation of operations) {
      const name = keyOf(operation);
      operationName = name;
      const isPublic = PUBLIC_OPERATIONS.has(name);
      const hasPathIds = operation.parameters.some((p) => p.in === 'path');
      const takesKey = operation.parameters.some((p) => p.in === 'header' && p.name === 'idempotency-key');
      const mutating = operation.method !== 'GET';
      // Never B's own session on logout: it would end it (a legitimate change, not a refusal).
      const bCookie = name === 'POST /api/auth/logout' ? undefined : world.b.cookie;
      const example = operation.body ? exampleFor(operation.body, context) : undefined;

      const kinds: string[] = ['query'];
      if (operation.body) kinds.push('broken-body', 'broken-body', 'broken-body');
      if (mutating) kinds.push('raw-body', 'content-type', 'cross-site');
      if (hasPathIds) kinds.push('foreign-id', 'garbage-id');
      if (!isPublic) kinds.push('signed-out');
      if (REFUSED_WHEN_WELL_FORMED.has(name) || (hasPathIds && mutating)) kinds.push('well-formed-refused', 'well-formed-refused');
      if (takesKey) kinds.push('idempotency-key');
      const kind = round === 0 && mutating ? 'huge-body' : random.pick(kinds);

      const headers: Record<string, string> = {};
      const setCookie = (cookie: string | undefined) => {
        if (cookie) headers.cookie = cookie;
      };
      const jsonBody = (value: unknown) => {
        headers['content-type'] = 'application/json';
        return serialiseBody(value);
      };
      const wellFormedPath = () => fillPath(operation, random, world, false);
      let url = `${wellFormedPath()}${random.chance(0.2) ? hostileQuery(operation, random, world) : ''}`;
      let payload: string | Buffer | undefined;
      let expectStatus: number | undefined;
      let expectCode: string | undefined;
      if (takesKey && random.chance(0.5)) headers['idempotency-key'] = hostileIdempotencyKey(random, world);

      switch (kind) {
        case 'query': {
          url = `${wellFormedPath()}${hostileQuery(operation, random, world)}`;
          setCookie(random.chance(0.85) ? bCookie : undefined);
          if (mutating) {
            // A well-formed state change with only a hostile query string would be accepted: break it.
            if (operation.body) payload = jsonBody(breakBody(operation.body, example, context)?.body ?? []);
            else if (!REFUSED_WHEN_WELL_FORMED.has(name) && !hasPathIds) delete headers.cookie;
          }
          break;
        }
        case 'broken-body': {
          const broken = breakBody(operation.body!, example, context);
          if (!broken) continue;
          setCookie(bCookie);
          payload = jsonBody(broken.body);
          if (!hasPathIds || random.chance(0.5)) expectStatus = 400;
          break;
        }
        case 'raw-body': {
          setCookie(bCookie);
          headers['content-type'] = random.pick(['application/json', 'application/json; charset=utf-8']);
          payload = random.pick(HOSTILE_RAW_BODIES);
          // Some raw bodies are valid JSON: keep only those the operation's schema refuses.
          if (operation.body) {
            let parsed: unknown;
            try {
              parsed = JSON.parse(payload);
            } catch {
              parsed = undefined;
            }
            if (parsed !== undefined && satisfies(operation.body, parsed)) payload = '[]';
          } else if (!REFUSED_WHEN_WELL_FORMED.has(name) && !hasPathIds) {
            delete headers.cookie; // e.g. logout: sent without a session
          }
          break;
        }
        case 'content-type': {
          setCookie(bCookie);
          headers['content-type'] = random.pick(WRONG_CONTENT_TYPES);
          payload = random.chance(0.5) ? serialiseBody(example ?? {}) : 'a=1&b=<script>';
          expectStatus = 415;
          expectCode = 'unsupported_media_type';
          break;
        }
        case 'cross-site': {
          setCookie(bCookie);
          Object.assign(headers, random.pick([{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: 'http://localhost:80.evil.example' }, { 'sec-fetch-site': 'cross-site' }]));
          if (example !== undefined) payload = jsonBody(example);
          expectStatus = 403;
          expectCode = 'csrf_failed';
          break;
        }
        case 'foreign-id':
        case 'well-formed-refused': {
          setCookie(bCookie);
          if (example !== undefined) {
            // Hostile strings in every string field the schema still accepts.
            const record = typeof example === 'object' && example !== null ? { ...(example as Record<string, unknown>) } : example;
            if (kind === 'well-formed-refused' && record && typeof record === 'object') {
              for (const [field, value] of Object.entries(record)) {
                if (typeof value !== 'string') continue;
                const candidate = { ...record, [field]: random.pick(HOSTILE_STRINGS) };
                if (random.chance(0.5) && satisfies(operation.body!, candidate)) Object.assign(record, candidate);
              }
            }
            payload = jsonBody(record);
          }
          if (takesKey) headers['idempotency-key'] = random.chance(0.5) ? random.pick(world.foreignKeys) : randomUUID();
          break;
        }
        case 'garbage-id': {
          setCookie(bCookie);
          url = fillPath(operation, random, world, true);
          if (example !== undefined) payload = jsonBody(example);
          break;
        }
        case 'signed-out': {
          setCookie(random.pick([undefined, 'pw_session=garbage', `pw_session=${'A'.repeat(43)}`, `pw_session=${world.b.cookie.slice(11, 30)}`, 'pw_session=', `pw_session=${'%'.repeat(4_000)}`]));
          if (example !== undefined) payload = jsonBody(example);
          break;
        }
        case 'idempotency-key': {
          setCookie(bCookie);
          headers['idempotency-key'] = hostileIdempotencyKey(random, world);
          // The key may be a valid one: only an operation that refuses B anyway gets a well-formed body.
          if (example !== undefined) {
            const refused = REFUSED_WHEN_WELL_FORMED.has(name) || hasPathIds;
            payload = jsonBody(refused ? example : (breakBody(operation.body!, example, context)?.body ?? []));
          }
          break;
        }
        case 'huge-body': {
          // A client announcing 10 MB must be stopped at the limit (64 KB), before anything runs.
          setCookie(bCookie);
          headers['content-type'] = 'application/json';
          payload = hugeBody;
          if (operation.method !== 'DELETE') {
            expectStatus = 413;
            expectCode = 'payload_too_large';
          }
          break;
        }
      }
      push({ kind, operation: name, method: operation.method, url, headers, payload, expectStatus, expectCode });
    }
  }
  return cases;
}

describe('fuzz: hostile requests from the OpenAPI document', () => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    // Real data of A's: a card (from a completed combine), a draft with a source, a cash-out.
    const cardKey = randomUUID();
    const created = await createCard(a, '20', { key: cardKey });
    expect(created.statusCode).toBe(201);
    const card = created.json() as { card: { id: string }; combine: { id: string } };
    const draft = await startCombine(a, '50', '0');
    const source = await addSource(a, draft.id, { chargeCents: 2_000 });
    expect(source.statusCode).toBe(201);
    const sourceId = (source.json() as { sources: Array<{ id: string }> }).sources[0]?.id ?? randomUUID();
    expect((await a.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    const cashoutKey = randomUUID();
    const cashout = await a.request('POST', '/api/cashouts', { cardId: card.card.id, amountCents: 100, payoutMethod: 'ach' }, { 'idempotency-key': cashoutKey });
    expect(cashout.statusCode).toBe(201);
    const cashoutId = (cashout.json() as { cashout: { id: string } }).cashout.id;
    // The capture and the payout these caused go out after their commits (decision 030); let them
    // finish, so the drain's own writes are not taken for the fuzz's.
    await t.app.effects.drain();
    world = {
      a,
      b,
      foreignIds: [card.card.id, card.combine.id, draft.id, sourceId, cashoutId, randomUUID(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
      foreignKeys: [cardKey, cashoutKey],
    };
  });

  afterAll(async () => {
    await t?.close();
  });

  it(`sends at least ${MIN_REQUESTS} hostile requests: no 5xx, every 4xx well-shaped, nothing accepted, nothing written (seed ${SEED})`, async () => {
    const document = t.app.swagger() as unknown as Parameters<typeof operationsOf>[0];
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(30);
    const cases = buildCases(operations, world, SEED);
    expect(cases.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
    const byKey = new Map(operations.map((operation) => [keyOf(operation), operation]));
    const operationOf = (fuzzCase: { operation: string }) => byKey.get(fuzzCase.operation)!;
    // Every endpoint and method is exercised.
    expect(new Set(cases.map((c) => c.operation)).size).toBe(operations.length);

    // The setup's completion and cash-out kicked the money-effects drain after their commits; let
    // it finish, so that the snapshots compare what the hostile requests did and nothing else.
    await t.app.effects.drain();
    await t.app.effects.idle();
    const before = await snapshotDatabase(t.database.db, EXCLUSIONS);
    const failures: string[] = [];
    const statusCounts: Record<string, number> = {};
    for (const fuzzCase of cases) {
      const response = await injectOperation(t.app, operationOf(fuzzCase), {
        method: fuzzCase.method,
        url: fuzzCase.url,
        headers: fuzzCase.headers,
        remoteAddress: fuzzCase.remoteAddress,
        ...(fuzzCase.payload !== undefined ? { payload: fuzzCase.payload } : {}),
      });
      const status = response.statusCode;
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      const problems: string[] = [];
      if (status >= 500) problems.push(`answered ${status}`);
      if (status >= 400) {
        let body: unknown;
        try {
          body = response.json();
        } catch {
          body = undefined;
        }
        const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
        if (typeof error?.code !== 'string' || error.code === '' || typeof error.message !== 'string' || error.message === '') {
          problems.push(`error body is not {error: {code, message}}`);
        }
        if (fuzzCase.expectCode && error?.code !== fuzzCase.expectCode) problems.push(`code ${String(error?.code)}, expected ${fuzzCase.expectCode}`);
      } else if (fuzzCase.method !== 'GET' && !HARMLESS_SUCCESS.has(fuzzCase.operation)) {
        problems.push(`a hostile ${fuzzCase.method} was accepted (${status})`);
      }
      if (fuzzCase.expectStatus && status !== fuzzCase.expectStatus) problems.push(`status ${status}, expected ${fuzzCase.expectStatus}`);
      if (problems.length > 0 && failures.length < 25) {
        const payload = typeof fuzzCase.payload === 'string' ? describeValue(fuzzCase.payload) : fuzzCase.payload ? `<${fuzzCase.payload.length} bytes>` : '';
        failures.push(
          `#${fuzzCase.index} [${fuzzCase.kind}] ${fuzzCase.method} ${fuzzCase.url.slice(0, 120)} ${describeValue(fuzzCase.headers)} ${payload}: ${problems.join('; ')} — ${response.body.slice(0, 200)}`,
        );
      }
    }
    const after = await snapshotDatabase(t.database.db, EXCLUSIONS);
    console.info(`fuzz (seed ${SEED}): ${cases.length} requests over ${operations.length} operations; statuses ${JSON.stringify(statusCounts)}`);
    expect(failures, `FUZZ_SEED=${SEED}\n${failures.join('\n')}`).toEqual([]);
    expect(after).toEqual(before);
  });

  it("hostile but well-formed values on a user's own draft and card are stored or refused, never a 5xx", async () => {
    const owner = await registerUser(t.app);
    const created = await createCard(owner, '30');
    expect(created.statusCode).toBe(201);
    const cardId = (created.json() as { card: { id: string } }).card.id;
    const draft = await startCombine(owner, '40', '0');
    const fit = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
    const failures: string[] = [];
    const check = async (label: string, send: Promise<{ statusCode: number; body: string }>) => {
      const response = await send;
      const error = response.statusCode >= 400 ? (JSON.parse(response.body) as { error?: { code?: unknown; message?: unknown } }).error : undefined;
      const badShape = response.statusCode >= 400 && (typeof error?.code !== 'string' || typeof error.message !== 'string');
      if (response.statusCode >= 500 || badShape) failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    };
    for (const hostile of HOSTILE_STRINGS) {
      const label = JSON.stringify(fit(hostile, 40));
      await check(`POST /combines baseInput ${label}`, owner.request('POST', '/api/combines', { baseInput: fit(hostile, 32), bufferInput: '0', bufferMode: 'percent' }));
      await check(`PATCH draft formData ${label}`, owner.request('PATCH', `/api/combines/${draft.id}`, { formData: { [fit(hostile, 64) || 'k']: hostile.slice(0, 2_000), nested: [hostile.slice(0, 100)] } }));
      await check(`POST draft save ${label}`, owner.request('POST', `/api/combines/${draft.id}/save`, { currentStep: 2, formData: { note: hostile.slice(0, 2_000) } }));
      await check(
        `POST draft source ${label}`,
        owner.request('POST', `/api/combines/${draft.id}/sources`, {
          type: 'credit',
          provider: fit(hostile, 40) || 'visa',
          chargeCents: 1_000,
          cardNumber: fit(hostile, 40),
          expMonth: 12,
          expYear: new Date().getUTCFullYear() + 2,
          cvv: fit(hostile, 8),
        }),
      );
      await check(`POST purchase merchant ${label}`, owner.request('POST', `/api/cards/${cardId}/purchases`, { merchant: fit(hostile, 80) || 'x', amountCents: 1 }, { 'idempotency-key': randomUUID() }));
      await check(`GET cards status ${label}`, owner.request('GET', `/api/cards?status=${encodeURIComponent(hostile.replace(/[\ud800-\udfff]/g, '?').slice(0, 200))}`));
    }
    expect(failures).toEqual([]);
    expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
});
