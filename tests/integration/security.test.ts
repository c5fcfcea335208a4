// Security: one user can never reach another's data; the session cookie, CSRF defence,
// security headers and rate limits are what docs/rules.md#rate-limits says; and after a flow that handles
// source card numbers and CVVs, none of them is in any table, the outbox or the logs.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, LOG_REDACT_PATHS } from '../../src/server/app';
import { SESSION_COOKIE } from '../../src/server/plugins/session';
import { addSource, completeWithQuote, createCard, PAYOUT_DETAILS, registerUser, startCombine, TEST_MASTERCARD, TEST_PASSWORD, TEST_VISA, type ApiUser } from '../helpers/api-client';
import { snapshotDatabase, type SnapshotExclusions } from '../helpers/db-snapshot';
import { exampleFor, operationsOf, seededRandom, type FuzzContext, type Operation } from '../helpers/openapi-fuzz';
import { luhnValid, scanDatabaseAndTexts, scanText } from '../helpers/scan-secrets';
import { createTestApp, testConfig, type TestApp } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-db';

/** The demo processor always declines this number (docs/rules.md#demo-declines). */
const DECLINE_CARD = '4000000000009995';

const EXCLUSIONS: SnapshotExclusions = { tables: ['rate_limit_counters'], columns: { sessions: ['last_seen_at'] } };

type Ids = { draftId: string; sourceId: string; completedCombineId: string; cardId: string; cashoutId: string };

/** Well-formed bodies, so that the ownership check (not validation) is what answers. */
function wellFormedBody(operation: Operation, context: FuzzContext): unknown {
  const key = `${operation.method} ${operation.path}`;
  const bodies: Record<string, unknown> = {
    'PATCH /api/combines/{id}': { currentStep: 2 },
    'POST /api/combines/{id}/sources': { type: 'credit', provider: 'visa', chargeCents: 1_000, cardNumber: '4111111111111111', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    'POST /api/combines/{id}/sources/{sourceId}/bnpl-card': { cardNumber: '4111 1111 1111 1111', expiry: '12/30', cvv: '123' },
    'POST /api/combines/{id}/quote': {},
    'POST /api/combines/{id}/save': { currentStep: 2 },
    'POST /api/combines/{id}/complete': { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general', expected: { cardAmountCents: 1_990, totalChargedCents: 2_100, productFeeCents: 20 } },
    'POST /api/cards/{id}/purchases': { merchant: 'Corner Shop', amountCents: 100 },
  };
  if (key in bodies) return bodies[key];
  return operation.body ? exampleFor(operation.body, context) : undefined;
}

describe('security', () => {
  let t: TestApp;
  let a: ApiUser;
  let b: ApiUser;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    a = await registerUser(t.app);
    b = await registerUser(t.app);
    const created = await createCard(a, '20');
    expect(created.statusCode).toBe(201);
    const card = created.json() as { card: { id: string }; combine: { id: string } };
    const draft = await startCombine(a, '50', '0');
    const source = await addSource(a, draft.id, { chargeCents: 2_000 });
    expect(source.statusCode).toBe(201);
    expect((await a.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    // B can cash out too (decision 172: to a method with its details), so A's card is what B's cash-out is refused for.
    expect((await b.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    const cashout = await a.request('POST', '/api/cashouts', { cardId: card.card.id, amountCents: 100, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(cashout.statusCode).toBe(201);
    ids = {
      draftId: draft.id,
      sourceId: (source.json() as { sources: Array<{ id: string }> }).sources[0]!.id,
      completedCombineId: card.combine.id,
      cardId: card.card.id,
      cashoutId: (cashout.json() as { cashout: { id: string } }).cashout.id,
    };
  });

  afterAll(async () => {
    await t?.close();
  });

  it("user B gets 404 from every id-bearing endpoint with A's ids, learns nothing and changes nothing", async () => {
    const operations = operationsOf(t.app.swagger() as unknown as Parameters<typeof operationsOf>[0]);
    // Path parameters that are ids (not a fixed list such as a payout method's name).
    const idBearing = operations.filter((op) => op.parameters.some((p) => p.in === 'path' && !p.schema.enum));
    expect(idBearing.length).toBeGreaterThanOrEqual(15);
    const context: FuzzContext = { random: seededRandom(8), foreignIds: [ids.cardId], fieldExamples: {} };
    const aIds = Object.values(ids);
    const bDraft = await startCombine(b, '10', '0');
    // A's payout and captures are carried out after their commits: let them settle first, so the
    // snapshots compare B's doing only (on a busy machine the drain can still be writing here).
    await t.app.effects.drain();
    await t.app.effects.idle();
    const before = await snapshotDatabase(t.database.db, EXCLUSIONS);

    const attempts: Array<{ op: Operation; url: string }> = [];
    for (const op of idBearing) {
      const assignments: Array<Record<string, string>> = op.path.includes('{sourceId}')
        ? [
            { id: ids.draftId, sourceId: ids.sourceId },
            { id: bDraft.id, sourceId: ids.sourceId }, // B's own draft, A's source
            { id: ids.completedCombineId, sourceId: ids.sourceId },
          ]
        : [ids.draftId, ids.completedCombineId, ids.cardId, ids.cashoutId].map((id) => ({ id }));
      for (const values of assignments) attempts.push({ op, url: op.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'missing') });
    }
    const failures: string[] = [];
    for (const { op, url } of attempts) {
      const body = wellFormedBody(op, context);
      const takesKey = op.parameters.some((p) => p.in === 'header' && p.name === 'idempotency-key');
      const response = await b.request(op.method, url, body, takesKey ? { 'idempotency-key': randomUUID() } : {});
      const leaked = [a.email, ...aIds.filter((id) => !url.includes(id))].filter((secret) => response.body.includes(secret));
      if (response.statusCode !== 404 || (response.json() as { error?: { code?: string } }).error?.code !== 'not_found' || leaked.length > 0) {
        failures.push(`${op.method} ${url}: ${response.statusCode} ${response.body.slice(0, 160)}${leaked.length ? ` LEAKED ${leaked.join(',')}` : ''}`);
      }
    }
    // Ids inside bodies and queries: A's card as a cash-out's card, as an internal source, as a filter.
    const bodyAttempts = [
      await b.request('POST', '/api/cashouts', { cardId: ids.cardId, amountCents: 100, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() }),
      await b.request('POST', `/api/combines/${bDraft.id}/sources`, { type: 'internal', sourceCardId: ids.cardId, chargeCents: 100 }),
    ];
    for (const response of bodyAttempts) {
      if (response.statusCode !== 404 || response.body.includes(a.email)) failures.push(`body id: ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    const listReads = [`/api/cashouts?cardId=${ids.cardId}`, '/api/cashouts', '/api/cards', '/api/combines', '/api/combines?status=incomplete', '/api/dashboard', '/api/history.csv', '/api/me', '/api/payout-methods'];
    for (const url of listReads) {
      const response = await b.request('GET', url);
      const leaked = [a.email, ...aIds.filter((id) => !url.includes(id))].filter((secret) => response.body.includes(secret));
      if (response.statusCode !== 200 || leaked.length > 0) failures.push(`GET ${url}: ${response.statusCode} leaked ${leaked.join(',')}`);
    }
    expect(failures).toEqual([]);
    expect(attempts.length).toBeGreaterThanOrEqual(idBearing.length);
    console.info(`security: user B tried ${idBearing.length} id-bearing operations with A's ids in ${attempts.length} requests, plus ${bodyAttempts.length} ids in bodies and ${listReads.length} list reads: all 404 or B's own data, nothing leaked`);
    // B's own draft aside (created before the snapshot), nothing changed.
    expect(await snapshotDatabase(t.database.db, EXCLUSIONS)).toEqual(before);
    // The ids are real: A reaches them.
    expect((await a.request('GET', `/api/cards/${ids.cardId}`)).statusCode).toBe(200);
    expect((await a.request('GET', `/api/combines/${ids.draftId}`)).statusCode).toBe(200);
  });

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/, a browser-session cookie unless remember-me, and Secure behind an https proxy', async () => {
    const email = `cookie-${randomUUID()}@example.com`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.9.9.1',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      payload: JSON.stringify({ email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, acceptTerms: true }),
    });
    expect(registered.statusCode).toBe(201);
    const raw = String(registered.headers['set-cookie']);
    expect(raw).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{22,}`));
    expect(raw).toMatch(/; HttpOnly/i);
    expect(raw).toMatch(/; SameSite=Lax/i);
    expect(raw).toMatch(/; Path=\/(;|$)/);
    expect(raw).not.toMatch(/Expires|Max-Age/i); // a browser-session cookie
    // Without TRUST_PROXY a client cannot claim https for itself.
    expect(raw).not.toMatch(/; Secure/i);
    expect(registered.headers['strict-transport-security']).toBeUndefined();

    const remembered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.9.9.2',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password: TEST_PASSWORD, rememberMe: true }),
    });
    expect(remembered.statusCode).toBe(200);
    const session = remembered.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(session?.maxAge).toBeGreaterThan(29 * 24 * 3600);
    expect(session?.maxAge).toBeLessThanOrEqual(30 * 24 * 3600);
    // Rotated at sign-in: a new token, not the registration one.
    expect(session?.value).not.toBe(registered.cookies.find((c) => c.name === SESSION_COOKIE)?.value);

    const proxied = await createTestApp({ database: t.database, env: { TRUST_PROXY: 'true' } });
    try {
      const secure = await proxied.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.9.9.3',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' },
        payload: JSON.stringify({ email, password: TEST_PASSWORD }),
      });
      expect(secure.statusCode).toBe(200);
      expect(String(secure.headers['set-cookie'])).toMatch(/; Secure/i);
      expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    } finally {
      await proxied.app.close();
    }
  });

  it('a cross-site state change is refused with 403 csrf_failed; a same-origin one passes', async () => {
    const host = 'payweave.test';
    const send = (headers: Record<string, string>, contentType = 'application/json') =>
      t.app.inject({ method: 'POST', url: '/api/combines', headers: { host, cookie: a.cookie, 'content-type': contentType, ...headers }, payload: JSON.stringify({ baseInput: '10', bufferInput: '0', bufferMode: 'percent' }) });
    const crossSite: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: `https://${host}` }, { origin: `http://${host}.evil.example` }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of crossSite) {
      const refused = await send(headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.json().error.code).toBe('csrf_failed');
    }
    // The classic form post (text/plain, no preflight) is refused whatever its origin.
    expect((await send({}, 'text/plain')).statusCode).toBe(415);
    expect((await send({}, 'application/x-www-form-urlencoded')).statusCode).toBe(415);
    expect((await send({ origin: `http://${host}` })).statusCode).toBe(201);
    expect((await send({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(201);
  });

  it('every API answer carries the security headers and Cache-Control: no-store', async () => {
    const answers = [
      await a.request('GET', '/api/me'),
      await a.request('GET', `/api/cards/${ids.cardId}`),
      await b.request('GET', `/api/cards/${ids.cardId}`), // 404
      await t.app.inject({ method: 'GET', url: '/api/cards' }), // 401
      await t.app.inject({ method: 'GET', url: '/api/no-such-endpoint' }),
      await t.app.inject({ method: 'GET', url: `/api/cards/${'x'.repeat(300)}` }), // over maxParamLength: the router answers
      await t.app.inject({ method: 'GET', url: '/api/cards/%E0%A4%A' }), // a URL that does not decode
    ];
    for (const response of answers) {
      const csp = String(response.headers['content-security-policy']);
      const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives.get('object-src'), csp).toEqual(["'none'"]);
      expect(directives.get('base-uri')).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      const scriptSrc = directives.get('script-src') ?? directives.get('default-src') ?? [];
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      if (response.statusCode >= 400) expect(Object.keys(response.json().error).sort()).toEqual(expect.arrayContaining(['code', 'message']));
    }
  });

  it('sign-in failures are limited per e-mail and IP, attempts per IP, with 429 rate_limited', async () => {
    const frozenAt = new Date();
    const limited = await createTestApp({ database: t.database, now: () => frozenAt });
    try {
      await expectSignInLimits(limited.app);
    } finally {
      await limited.app.close();
    }
  });
});

async function expectSignInLimits(app: TestApp['app']) {
  const victim = `victim-${randomUUID()}@example.com`;
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.77.0.1', // one address: its failures for this e-mail (decision 083)
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: victim, password: 'Wrong-Password-1' }),
    });
    statuses.push(response.statusCode);
    if (response.statusCode === 429) {
      expect(response.json().error.code).toBe('rate_limited');
      expect(response.headers['retry-after']).toBeDefined();
    }
  }
  expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
  expect(statuses.slice(10)).toEqual([429, 429]);
  // Another address is not held back by them (a stranger cannot lock the owner out).
  const elsewhere = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '10.77.1.1',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: victim, password: 'Wrong-Password-1' }),
  });
  expect(elsewhere.statusCode).toBe(401);

  const sprayer = '10.78.0.1';
  let firstRefused = -1;
  for (let attempt = 0; attempt < 32 && firstRefused < 0; attempt += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: sprayer,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: `spray-${attempt}@example.com`, password: 'Wrong-Password-1' }),
    });
    if (response.statusCode === 429) firstRefused = attempt;
  }
  expect(firstRefused).toBe(30);
}

describe('card secrets are never kept: tables, outbox and trace logs', () => {
  it('the scanner itself finds a planted number (spaced or not) and a CVV field, and ignores other digit runs', () => {
    expect(luhnValid(TEST_VISA)).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(scanText('x', `number 4242 4242 4242 4242 and ${TEST_MASTERCARD}`, [TEST_VISA, TEST_MASTERCARD])).toHaveLength(2);
    expect(scanText('x', 'at 17322624000004242424242424242 then', [TEST_VISA])).toHaveLength(1);
    expect(scanText('x', '{"cvv":"123"} cvc=9876', [])).toHaveLength(2);
    expect(scanText('x', '{"cvv":"[redacted]","id":1732262400000123}', [TEST_VISA])).toEqual([]);
  });

  it('after sources (card, declined card, BNPL one-time card) and a completed combine, no source number or CVV is anywhere', async () => {
    const logChunks: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logChunks.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } }, sink);
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ LOG_LEVEL: 'trace' }), database, logger, serveWeb: false });
    await app.ready();
    try {
      const user = await registerUser(app);
      const combine = await startCombine(user, '300', '0');
      const declined = await addSource(user, combine.id, { chargeCents: 5_000, cardNumber: DECLINE_CARD });
      expect(declined.statusCode).toBe(402);
      const card = await addSource(user, combine.id, { chargeCents: 15_000, cardNumber: TEST_VISA });
      expect(card.statusCode).toBe(201);
      const remaining = (card.json() as { funding: { suggestedChargeCents: { bnpl: number } } }).funding.suggestedChargeCents.bnpl;
      const bnpl = await addSource(user, combine.id, { type: 'bnpl', provider: 'klarna', chargeCents: remaining });
      expect(bnpl.statusCode).toBe(201);
      const bnplSource = (bnpl.json() as { sources: Array<{ id: string; type: string }> }).sources.find((s) => s.type === 'bnpl')!;
      const oneTime = await user.request('POST', `/api/combines/${combine.id}/sources/${bnplSource.id}/bnpl-card`, { cardNumber: '5555 5555 5555 4444', expiry: '12/30', cvv: '987' });
      expect(oneTime.statusCode).toBe(200);
      const done = await completeWithQuote(user, combine.id);
      expect(done.statusCode).toBe(201);
      const cardId = (done.json() as { card: { id: string } }).card.id;
      // The virtual card's own number may be shown in the reveal, and nowhere else in clear.
      expect((await user.request('POST', '/api/auth/reauthenticate', { password: TEST_PASSWORD })).statusCode).toBe(204);
      const reveal = await user.request('POST', `/api/cards/${cardId}/reveal`);
      expect(reveal.statusCode).toBe(200);
      const virtualNumber = (reveal.json() as { number: string }).number.replace(/\D/g, '');
      expect(luhnValid(virtualNumber)).toBe(true);
      // And an e-mail in the outbox.
      await app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: user.email }) });
      await app.afterAnswer.idle();

      const logs = logChunks.join('');
      expect(logs.length).toBeGreaterThan(1_000);
      const result = await scanDatabaseAndTexts(database.db, {
        cardNumbers: [TEST_VISA, TEST_MASTERCARD, DECLINE_CARD, virtualNumber],
        texts: [{ where: 'logs', text: logs }],
      });
      expect(result.columnsScanned).toBeGreaterThan(30);
      expect(result.rowsScanned).toBeGreaterThan(20);
      expect(result.findings).toEqual([]);
      console.info(`security secret scan: ${result.columnsScanned} columns, ${result.rowsScanned} rows, ${logs.length} bytes of trace logs: ${result.findings.length} findings`);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
