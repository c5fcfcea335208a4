// Faults: the real server as a child process on PostgreSQL, hurt on purpose.
//  1. SIGKILL in the middle of a burst of card creations and cash-outs, then a restart on the same
//     database and a retry of every request with its Idempotency-Key: the ledger balances, no
//     combine is half-done (neither right after the crash nor after the retries), every
//     acknowledged request exists exactly once (a retry replays the first answer), and the demo
//     outside systems made one payout per cash-out and one capture per hold (money-count.ts).
//     More failure points, counted the same way: money-faults.test.ts.
//  2. pg_terminate_backend on every connection of the server while requests wait inside their
//     transactions: the clients get a clear 503 in the usual {error: {code, message}} shape,
//     nothing is half-written, and the same process serves the next requests (retries included).
//  3. Several instances starting at once on an empty database (a scale-out, a rolling deploy)
//     all come up: the start-up migrations take turns instead of failing on each other.
// A test-held row lock on one user parks that user's requests inside their transactions (after
// the idempotency key is claimed), so both tests hit work that is truly in flight in the database.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import { checkLedger } from '../../src/server/ledger/check-ledger';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src/server/plugins/errors';
import { PAYOUT_DETAILS, TEST_PASSWORD, TEST_VISA } from '../helpers/api-client';
import { queryRows } from '../helpers/db-snapshot';
import { countMoney, waitForDrain } from '../helpers/money-count';
import { registerOver, removeServerBundle, serverBundle, startServer, type HttpAnswer, type HttpUser, type ServerProcess } from '../helpers/server-process';
import { adminQuery, createTestDatabase, postgresDatabaseUrl, uniqueDatabaseName, type TestDatabase } from '../helpers/test-db';

const COMPLETE_CHOICES = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' } as const;
/** Long enough that requests are in flight when the server dies, short enough for a quick test. */
const LATENCY_MS = 400;
const SERVER_ENV = { TRUST_PROXY: 'true', DB_POOL_SIZE: '8', DEMO_LATENCY_MS: String(LATENCY_MS) };

type Quote = { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
type Prepared = { user: HttpUser; userId: string; cardId: string; cardStartCents: number; drafts: Array<{ combineId: string; quote: Quote }> };
type Planned = { kind: 'complete' | 'cashout'; user: Prepared; key: string; body: unknown; combineId?: string; cardId?: string; amountCents?: number };
type Outcome = { request: Planned; first?: HttpAnswer; firstError?: string; final?: HttpAnswer };

const expected = (quote: Quote) => ({ cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

let userCount = 0;
/** A user with a funded card, ACH saved for cash-outs, and `drafts` combines ready to complete. */
async function prepareUser(baseUrl: string, drafts: number): Promise<Prepared> {
  userCount += 1;
  const user = await registerOver(baseUrl, `faults-${userCount}-${randomUUID()}@example.com`, TEST_PASSWORD, `198.51.100.${userCount}`);
  const userId = ((await user.request(baseUrl, 'GET', '/api/me')).body as { id: string }).id;
  const draft = async (amount: string) => {
    const created = await user.request(baseUrl, 'POST', '/api/combines', { baseInput: amount, bufferInput: '0', bufferMode: 'percent' });
    expect(created.status, created.text).toBe(201);
    const combine = created.body as { id: string; funding: { suggestedChargeCents: { card: number } } };
    const source = await user.request(baseUrl, 'POST', `/api/combines/${combine.id}/sources`, {
      type: 'credit',
      provider: 'visa',
      chargeCents: combine.funding.suggestedChargeCents.card,
      cardNumber: TEST_VISA,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvv: '123',
    });
    expect(source.status, source.text).toBe(201);
    const quote = await user.request(baseUrl, 'POST', `/api/combines/${combine.id}/quote`, COMPLETE_CHOICES);
    expect(quote.status, quote.text).toBe(200);
    return { combineId: combine.id, quote: quote.body as Quote };
  };
  const first = await draft('1000');
  const done = await user.request(baseUrl, 'POST', `/api/combines/${first.combineId}/complete`, { ...COMPLETE_CHOICES, expected: expected(first.quote) }, { 'idempotency-key': randomUUID() });
  expect(done.status, done.text).toBe(201);
  const card = (done.body as { card: { id: string; remainingAmountCents: number } }).card;
  expect((await user.request(baseUrl, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).status).toBe(201);
  const ready = [];
  for (let i = 0; i < drafts; i += 1) ready.push(await draft(String(200 + 50 * i)));
  return { user, userId, cardId: card.id, cardStartCents: card.remainingAmountCents, drafts: ready };
}

/** One request as the client sends it; a network failure (the server died) is an answer too. */
async function send(request: Planned, baseUrl: string): Promise<HttpAnswer> {
  const url = request.kind === 'complete' ? `/api/combines/${request.combineId}/complete` : '/api/cashouts';
  return request.user.user.request(baseUrl, 'POST', url, request.body, { 'idempotency-key': request.key });
}

/** Retries with the same key and body until the answer is final (not 503, not "still being processed"). */
async function retryUntilFinal(request: Planned, baseUrl: string): Promise<HttpAnswer> {
  let last: HttpAnswer | undefined;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      last = await send(request, baseUrl);
      const code = (last.body as { error?: { code?: string } } | null)?.error?.code;
      if (last.status !== 503 && !(last.status === 409 && code === 'conflict')) return last;
    } catch {
      // connection refused or reset: the same as no answer
    }
    await sleep(100 + attempt * 50);
  }
  if (last) return last;
  throw new Error(`no answer for ${request.kind} ${request.key}`);
}

/** A transaction on its own connection holding `FOR UPDATE` on a user's row. */
async function lockUserRow(databaseUrl: string, userId: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  await client.query('begin');
  await client.query('select id from users where id = $1 for update', [userId]);
  return client;
}

/** Server backends of `database` waiting on a lock. */
async function lockWaiters(client: pg.Client, database: string): Promise<number> {
  const result = await client.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    [database],
  );
  return result.rows[0]?.n ?? 0;
}

async function waitFor(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * The fault invariants from the committed data alone: every completed combine has exactly
 * one card (the one it names), only captured sources and one journal; no other combine has a
 * card, a captured source or a journal; no idempotency key is stored without its answer.
 */
async function halfDoneProblems(database: TestDatabase): Promise<string[]> {
  const problems: string[] = [];
  const completed = await queryRows<{ id: string; card_id: string | null; cards: number; named: number; uncaptured: number; journals: number }>(
    database.db,
    `select c.id, c.card_id,
            (select count(*)::int from cards k where k.combine_id = c.id) as cards,
            (select count(*)::int from cards k where k.combine_id = c.id and k.id = c.card_id) as named,
            (select count(*)::int from combine_sources s where s.combine_id = c.id and s.status <> 'captured') as uncaptured,
            (select count(*)::int from journals j where j.reference_id = c.id) as journals
       from combines c where c.status = 'completed'`,
  );
  for (const row of completed) {
    if (row.cards !== 1 || row.named !== 1) problems.push(`completed combine ${row.id} has ${row.cards} cards (named ${row.card_id ?? 'none'})`);
    if (row.uncaptured !== 0) problems.push(`completed combine ${row.id} has ${row.uncaptured} sources not captured`);
    if (row.journals !== 1) problems.push(`completed combine ${row.id} has ${row.journals} journals`);
  }
  const open = await queryRows<{ id: string; status: string; card_id: string | null; cards: number; captured: number; journals: number }>(
    database.db,
    `select c.id, c.status, c.card_id,
            (select count(*)::int from cards k where k.combine_id = c.id) as cards,
            (select count(*)::int from combine_sources s where s.combine_id = c.id and s.status = 'captured') as captured,
            (select count(*)::int from journals j where j.reference_id = c.id) as journals
       from combines c where c.status <> 'completed'`,
  );
  for (const row of open) {
    if (row.card_id !== null || row.cards !== 0) problems.push(`${row.status} combine ${row.id} has a card`);
    if (row.captured !== 0) problems.push(`${row.status} combine ${row.id} has ${row.captured} captured sources`);
    if (row.journals !== 0) problems.push(`${row.status} combine ${row.id} has ${row.journals} journals`);
  }
  const unanswered = await queryRows<{ key: string }>(database.db, 'select key from idempotency_keys where response_status = 0');
  for (const row of unanswered) problems.push(`idempotency key ${row.key} stored without its answer`);
  const ledger = await checkLedger(database.db);
  problems.push(...ledger.problems);
  return problems;
}

/** Every key of `requests` did its work exactly once, and the work is the one its answer names. */
async function exactlyOnceProblems(database: TestDatabase, outcomes: Outcome[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { request, first, final } of outcomes) {
    const answer = final ?? first;
    if (answer?.status !== 201) {
      problems.push(`${request.kind} ${request.key} ended with ${answer?.status ?? 'no answer'}: ${answer?.text ?? ''}`);
      continue;
    }
    const [key] = await queryRows<{ n: number; status: number }>(
      database.db,
      `select count(*)::int as n, max(response_status)::int as status from idempotency_keys where key = ${quoteLiteral(request.key)}`,
    );
    if (key?.n !== 1 || key.status !== 201) problems.push(`${request.kind} ${request.key}: ${key?.n ?? 0} key rows, stored status ${key?.status ?? 'none'}`);
    if (request.kind === 'complete') {
      const cardId = (answer.body as { card: { id: string } }).card.id;
      const cards = await queryRows<{ id: string }>(database.db, `select id from cards where combine_id = ${quoteLiteral(request.combineId!)}`);
      if (cards.length !== 1 || cards[0]?.id !== cardId) problems.push(`combine ${request.combineId} has cards [${cards.map((c) => c.id).join(', ')}], the answer named ${cardId}`);
      if (first && first.status === 201 && (first.body as { card: { id: string } }).card.id !== cardId) problems.push(`retry of ${request.key} named another card`);
    } else {
      const cashoutId = (answer.body as { cashout: { id: string } }).cashout.id;
      const rows = await queryRows<{ n: number }>(database.db, `select count(*)::int as n from transactions where id = ${quoteLiteral(cashoutId)} and type = 'cashout'`);
      if (rows[0]?.n !== 1) problems.push(`cash-out ${cashoutId} (key ${request.key}) stored ${rows[0]?.n ?? 0} times`);
      if (first && first.status === 201 && (first.body as { cashout: { id: string } }).cashout.id !== cashoutId) problems.push(`retry of ${request.key} named another cash-out`);
    }
  }
  // And nothing beyond them: one cash-out row per cash-out key on each card, balances to match.
  const byCard = new Map<string, { start: number; amounts: number[] }>();
  for (const { request } of outcomes) {
    if (request.kind !== 'cashout') continue;
    const entry = byCard.get(request.cardId!) ?? { start: request.user.cardStartCents, amounts: [] };
    entry.amounts.push(request.amountCents!);
    byCard.set(request.cardId!, entry);
  }
  for (const [cardId, { start, amounts }] of byCard) {
    const [row] = await queryRows<{ n: number; remaining: number }>(
      database.db,
      `select (select count(*)::int from transactions where card_id = ${quoteLiteral(cardId)} and type = 'cashout') as n,
              (select remaining_amount_cents::int from cards where id = ${quoteLiteral(cardId)}) as remaining`,
    );
    if (row?.n !== amounts.length) problems.push(`card ${cardId} has ${row?.n ?? 0} cash-outs for ${amounts.length} keys`);
    const expectedRemaining = start - amounts.reduce((sum, amount) => sum + amount, 0);
    if (row?.remaining !== expectedRemaining) problems.push(`card ${cardId} holds ${row?.remaining ?? 'nothing'} cents, expected ${expectedRemaining}`);
  }
  return problems;
}

const alive = (server: ServerProcess) => server.child.exitCode === null && server.child.signalCode === null;

describe('faults: a crashed server and a lost database connection', () => {
  beforeAll(async () => {
    await serverBundle();
  }, 60_000);

  afterAll(() => {
    removeServerBundle();
  });

  it('SIGKILL mid-burst, restart on the same database, retry every unanswered request: nothing half-done, everything once', async () => {
    const database = await createTestDatabase({ poolSize: 4 });
    const databaseName = new URL(database.url).pathname.slice(1);
    // The demo outside systems' own record of the calls they received, kept across the crash.
    const callDir = mkdtempSync(path.join(tmpdir(), 'payweave-faults-'));
    const env = { ...SERVER_ENV, DEMO_ADAPTER_LOG: path.join(callDir, 'calls.jsonl'), EFFECT_LEASE_MS: '1000', EFFECT_RETRY_BASE_MS: '100' };
    let server = await startServer({ databaseUrl: database.url, env });
    const port = server.port;
    let locker: pg.Client | undefined;
    try {
      const users = await Promise.all(Array.from({ length: 6 }, () => prepareUser(server.url, 2)));
      // Round-robin over users, so every user has requests early and late in the burst.
      const perUser = users.map((user): Planned[] => [
        ...user.drafts.map((draft) => ({
          kind: 'complete' as const,
          user,
          key: randomUUID(),
          combineId: draft.combineId,
          body: { ...COMPLETE_CHOICES, expected: expected(draft.quote) },
        })),
        ...[2_500, 3_000, 3_500].map((amountCents) => ({
          kind: 'cashout' as const,
          user,
          key: randomUUID(),
          cardId: user.cardId,
          amountCents,
          body: { cardId: user.cardId, amountCents, payoutMethod: 'ach' },
        })),
      ]);
      const planned: Planned[] = [];
      for (let round = 0; round < 5; round += 1) for (const list of perUser) if (list[round]) planned.push(list[round]!);

      // The first user's requests will wait inside their transactions, on a row lock the test holds.
      const parked = users[0]!;
      locker = await lockUserRow(database.url, parked.userId);

      const outcomes: Outcome[] = planned.map((request) => ({ request }));
      const firstUrl = server.url;
      const burst = Promise.all(
        outcomes.map(async (outcome, index) => {
          await sleep(index * 30);
          try {
            outcome.first = await send(outcome.request, firstUrl);
          } catch (error) {
            outcome.firstError = (error as Error).message;
          }
        }),
      );
      // Kill once some requests were answered and the parked ones sit in the database mid-transaction.
      const lockClient = locker;
      await waitFor('answers and parked requests', async () => outcomes.filter((o) => o.first).length >= 4 && (await lockWaiters(lockClient, databaseName)) >= 2);
      await server.kill();
      await burst;

      const acknowledged = outcomes.filter((o) => o.first);
      const unanswered = outcomes.filter((o) => !o.first);
      expect(acknowledged.length).toBeGreaterThanOrEqual(4);
      expect(unanswered.length).toBeGreaterThanOrEqual(5);
      expect(acknowledged.map((o) => o.first!.status)).toEqual(acknowledged.map(() => 201));
      expect(unanswered.filter((o) => o.request.user === parked).length).toBeGreaterThanOrEqual(2);

      // Right after the crash (the parked transactions still open on their dead connections):
      // what committed is whole, and the rest left no trace.
      expect(await halfDoneProblems(database)).toEqual([]);
      const unansweredCombines = unanswered.filter((o) => o.request.kind === 'complete').map((o) => quoteLiteral(o.request.combineId!));
      if (unansweredCombines.length > 0) {
        const [open] = await queryRows<{ n: number }>(database.db, `select count(*)::int as n from combines where status <> 'completed' and id in (${unansweredCombines.join(',')})`);
        expect(open?.n).toBeGreaterThan(0);
      }

      await locker.query('rollback');
      await locker.end();
      locker = undefined;

      // Restart on the same port and database, as a supervisor would, and retry everything with
      // its key: unanswered requests do their work now (once), answered ones replay their answer.
      server = await startServer({ databaseUrl: database.url, port, env });
      await Promise.all(
        outcomes.map(async (outcome) => {
          outcome.final = await retryUntilFinal(outcome.request, server.url);
        }),
      );
      for (const outcome of acknowledged) {
        expect(outcome.final?.status).toBe(outcome.first?.status);
        expect(outcome.final?.body).toEqual(outcome.first?.body);
      }

      expect(await halfDoneProblems(database)).toEqual([]);
      expect(await exactlyOnceProblems(database, outcomes)).toEqual([]);
      const [open] = await queryRows<{ n: number }>(database.db, "select count(*)::int as n from combines where status <> 'completed'");
      expect(open?.n).toBe(0);
      const report = await checkLedger(database.db);
      expect(report.problems).toEqual([]);
      expect(report.cards).toBe(users.length * 3);
      expect(alive(server)).toBe(true);
      // Money that left, not only balances: once the worker has drained, one
      // payout per cash-out and one capture per hold of a completed combine, nothing for the rest.
      await waitForDrain(database.db, 60_000);
      const money = await countMoney(database.db, env.DEMO_ADAPTER_LOG);
      expect(money.problems).toEqual([]);
      expect(money.payouts).toBe(outcomes.filter((o) => o.request.kind === 'cashout').length);
      // The figures docs/proof.md records.
      const kinds = (list: Outcome[]) => `${list.filter((o) => o.request.kind === 'complete').length} card creations, ${list.filter((o) => o.request.kind === 'cashout').length} cash-outs`;
      console.info(
        `faults (SIGKILL): ${planned.length} requests (${kinds(outcomes)}); ${acknowledged.length} answered before the kill, ${unanswered.length} unanswered (${kinds(unanswered)}); ` +
          `after the restart every retry answered, ${acknowledged.length} replayed identically; ledger: ${report.journals} journals, ${report.cards} cards, ${report.problems.length} problems`,
      );
    } finally {
      await locker?.end().catch(() => {});
      await server.stop();
      await database.drop();
      rmSync(callDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('pg_terminate_backend mid-request: a clear 503, nothing half-written, and the same process serves the retries', async () => {
    const database = await createTestDatabase({ poolSize: 2 });
    const databaseName = new URL(database.url).pathname.slice(1);
    const server = await startServer({ databaseUrl: database.url, env: SERVER_ENV });
    let locker: pg.Client | undefined;
    try {
      const prepared = await prepareUser(server.url, 1);
      const draft = prepared.drafts[0]!;
      const requests: Planned[] = [
        { kind: 'complete', user: prepared, key: randomUUID(), combineId: draft.combineId, body: { ...COMPLETE_CHOICES, expected: expected(draft.quote) } },
        { kind: 'cashout', user: prepared, key: randomUUID(), cardId: prepared.cardId, amountCents: 4_000, body: { cardId: prepared.cardId, amountCents: 4_000, payoutMethod: 'ach' } },
      ];

      // Park both inside their transactions, then terminate every connection of the database but ours.
      locker = await lockUserRow(database.url, prepared.userId);
      const answeredEarly: string[] = [];
      const answers = requests.map((request) =>
        send(request, server.url).then(
          (answer) => {
            answeredEarly.push(`${request.kind}: ${answer.status} ${answer.text}`);
            return answer;
          },
          (error: unknown) => {
            throw new Error(`no answer (${(error as Error).message}); the server said:\n${server.logs()}`);
          },
        ),
      );
      const lockClient = locker;
      // This wait timed out once in CI (2026-11-27, two test files at a time on a slow host), and
      // passed in the runs around it. Should it time out again, say what each request and backend did.
      await waitFor('both requests waiting in the database', async () => (await lockWaiters(lockClient, databaseName)) >= 2).catch(async (error: unknown) => {
        const backends = await lockClient.query(
          'select state, wait_event_type, wait_event, left(query, 100) as query from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [databaseName],
        );
        throw new Error(`${(error as Error).message}; answered meanwhile: ${answeredEarly.join('; ') || 'none'}; the database's backends: ${JSON.stringify(backends.rows)}; the server said:\n${server.logs()}`);
      });
      const terminated = await locker.query<{ killed: boolean }>(
        'select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [databaseName],
      );
      expect(terminated.rows.filter((row) => row.killed).length).toBeGreaterThanOrEqual(2);
      await locker.query('rollback');
      await locker.end();
      locker = undefined;

      for (const answer of await Promise.all(answers)) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.body).toEqual({ error: { code: 'service_unavailable', message: SERVICE_UNAVAILABLE_MESSAGE } });
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      }
      // A message for a person: says what happened and what to do, and leaks nothing technical.
      expect(SERVICE_UNAVAILABLE_MESSAGE).toMatch(/temporarily unavailable.*try again/i);
      expect(SERVICE_UNAVAILABLE_MESSAGE).not.toMatch(/postgres|terminat|connection|sql|pool/i);

      // The process survived, and nothing was written: no key, no card, no cash-out, no journal.
      await sleep(200);
      expect(alive(server), server.logs()).toBe(true);
      const keys = requests.map((r) => quoteLiteral(r.key)).join(',');
      const [state] = await queryRows<{ keys: number; cards: number; cashouts: number; journals: number; status: string }>(
        database.db,
        `select (select count(*)::int from idempotency_keys where key in (${keys})) as keys,
                (select count(*)::int from cards where combine_id = ${quoteLiteral(draft.combineId)}) as cards,
                (select count(*)::int from transactions where card_id = ${quoteLiteral(prepared.cardId)} and type = 'cashout') as cashouts,
                (select count(*)::int from journals where reference_id = ${quoteLiteral(draft.combineId)}) as journals,
                (select status from combines where id = ${quoteLiteral(draft.combineId)}) as status`,
      );
      expect(state).toEqual({ keys: 0, cards: 0, cashouts: 0, journals: 0, status: 'in_progress' });
      expect(await halfDoneProblems(database)).toEqual([]);

      // Recovery without a restart: reads and the retried writes succeed, each exactly once.
      const me = await prepared.user.request(server.url, 'GET', '/api/me');
      expect(me.status, me.text).toBe(200);
      const outcomes: Outcome[] = [];
      for (const request of requests) {
        const answer = await send(request, server.url);
        expect(answer.status, answer.text).toBe(201);
        outcomes.push({ request, final: answer });
      }
      expect(await exactlyOnceProblems(database, outcomes)).toEqual([]);

      // Idle connections terminated too (nothing in flight): the next requests still succeed.
      const admin = new pg.Client({ connectionString: database.url });
      admin.on('error', () => {});
      await admin.connect();
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [databaseName]);
      await admin.end();
      await sleep(100);
      for (let i = 0; i < 5; i += 1) {
        const cards = await prepared.user.request(server.url, 'GET', '/api/cards');
        expect(cards.status, cards.text).toBe(200);
      }
      expect(alive(server), server.logs()).toBe(true);
      expect(await halfDoneProblems(database)).toEqual([]);
      console.info(`faults (pg_terminate_backend): ${terminated.rows.filter((row) => row.killed).length} connections terminated mid-request; 2 of 2 requests answered 503 service_unavailable with nothing written; retries 201 once each; 5 of 5 reads after idle connections were cut: 200`);
    } finally {
      await locker?.end().catch(() => {});
      await server.stop();
      await database.drop();
    }
  }, 60_000);
  it('instances starting together on an empty database all come up, and the migrations run once', async () => {
    // An empty database, not a clone of the migrated template: the instances migrate it.
    const name = uniqueDatabaseName();
    await adminQuery(`create database "${name}"`);
    const url = postgresDatabaseUrl(name);
    const started = await Promise.allSettled(Array.from({ length: 3 }, () => startServer({ databaseUrl: url, env: SERVER_ENV })));
    const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(started.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason).slice(0, 2_000))).toEqual([]);
      for (const server of servers) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const applied = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
        expect(applied.rows[0]?.n).toBe(journal.entries.length);
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await adminQuery(`drop database if exists "${name}" with (force)`);
    }
  }, 60_000);
});
