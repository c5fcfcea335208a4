// Faults that count money, not just balances (docs/rules.md#outside-effects). The real server
// runs as a child process on PostgreSQL with its demo outside systems broken on purpose
// (DEMO_FAULTS) and recording every call they receive in an append-only file (DEMO_ADAPTER_LOG),
// which outlives a SIGKILL and is read again after a restart, as a real provider remembers what it
// did. For each failure point — an adapter error, a timeout, an answer lost, the server killed with
// SIGKILL between the commit and the effect, a restart — the same traffic runs: completed combines
// (one with a BNPL rebate), a deleted draft, accepted cash-outs, a replayed one, refused ones and a
// race for the last dollars. After the worker drains, the calls the outside systems received,
// deduplicated by reference, must be exactly what the committed data owes (tests/helpers/
// money-count.ts): one payout per accepted cash-out and none for the others, one capture per hold
// of a completed combine, one void per hold of a failed or deleted one, each due rebate paid once,
// and the ledger check holds. Then the issue's concurrency sweep: 40 × $10 on a $250 card.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/lib/paths';
import { PAYOUT_DETAILS, TEST_PASSWORD, TEST_VISA } from '../helpers/api-client';
import { queryRows } from '../helpers/db-snapshot';
import { insertFundedCard } from '../helpers/fixtures';
import type { DemoCall } from '../../src/server/adapters/demo-calls';
import { countMoney, readCallFile, waitForDrain } from '../helpers/money-count';
import { registerOver, removeServerBundle, serverBundle, startServer, type HttpAnswer, type HttpUser, type ServerProcess } from '../helpers/server-process';
import { TEST_CARD_DATA_KEY } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db';

const COMPLETE_CHOICES = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' } as const;
/** A failed effect is retried quickly, so the drain settles within the test. */
const BASE_ENV = { TRUST_PROXY: 'true', DB_POOL_SIZE: '8', EFFECT_RETRY_BASE_MS: '50', EFFECT_LEASE_MS: '1000', DEMO_FAULT_TIMEOUT_MS: '100' };
/** Every step that moves money after a commit, broken at its first calls. */
const breakEffects = (mode: string) => `processor.capture:${mode}@1-2;processor.release:${mode}@1;payouts.send:${mode}@1-3`;

let tmp: string;

async function waitForCalls(file: string, condition: (calls: DemoCall[]) => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition(readCallFile(file))) {
    if (Date.now() > deadline) throw new Error(`the outside systems did not see the expected calls in ${timeoutMs} ms: ${JSON.stringify(readCallFile(file).map((c) => `${c.op} ${c.outcome}`))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
let userCount = 0;

type Traffic = {
  /** Holds of drafts the traffic deleted: each must be voided once. */
  voidedHolds: string[];
  acceptedCashouts: string[];
  refusedCashouts: HttpAnswer[];
  replayed: { first: HttpAnswer; again: HttpAnswer };
};

async function ok(answer: Promise<HttpAnswer>, status = 201): Promise<HttpAnswer> {
  const settled = await answer;
  expect(settled.status, settled.text).toBe(status);
  return settled;
}

async function draft(url: string, user: HttpUser, baseInput: string, sources: number): Promise<string> {
  const combine = (await ok(user.request(url, 'POST', '/api/combines', { baseInput, bufferInput: '0', bufferMode: 'percent' }))).body as { id: string; funding: { suggestedChargeCents: { card: number } } };
  const each = Math.ceil(combine.funding.suggestedChargeCents.card / sources) + 100;
  for (let i = 0; i < sources; i += 1) {
    await ok(
      user.request(url, 'POST', `/api/combines/${combine.id}/sources`, {
        type: 'credit',
        provider: 'visa',
        chargeCents: each,
        cardNumber: TEST_VISA,
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvv: '123',
      }),
    );
  }
  return combine.id;
}

async function complete(url: string, user: HttpUser, combineId: string): Promise<{ id: string; remainingAmountCents: number }> {
  const quote = (await ok(user.request(url, 'POST', `/api/combines/${combineId}/quote`, COMPLETE_CHOICES), 200)).body as { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
  const expected = { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents };
  const done = await ok(user.request(url, 'POST', `/api/combines/${combineId}/complete`, { ...COMPLETE_CHOICES, expected }, { 'idempotency-key': randomUUID() }));
  return (done.body as { card: { id: string; remainingAmountCents: number } }).card;
}

const cashout = (url: string, user: HttpUser, cardId: string, amountCents: number, key = randomUUID()) =>
  user.request(url, 'POST', '/api/cashouts', { cardId, amountCents, payoutMethod: 'ach' }, { 'idempotency-key': key });

/**
 * The money traffic of one user: a completed combine with two holds, a BNPL combine whose rebate
 * is due at once (ACH saved first), a completion refused after the review, a deleted draft with
 * two holds, two accepted cash-outs, one replayed, one refused over the balance, and six racing
 * for a $30 card (three win).
 */
async function moneyTraffic(url: string, database: TestDatabase): Promise<Traffic> {
  userCount += 1;
  const user = await registerOver(url, `money-faults-${userCount}-${randomUUID()}@example.com`, TEST_PASSWORD, `198.51.101.${userCount}`);
  const userId = ((await user.request(url, 'GET', '/api/me')).body as { id: string }).id;
  await ok(user.request(url, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach));

  const card = await complete(url, user, await draft(url, user, '300', 2));

  const bnpl = (await ok(user.request(url, 'POST', '/api/combines', { baseInput: '143.85', bufferInput: '0', bufferMode: 'dollars' }))).body as { id: string };
  const added = await ok(user.request(url, 'POST', `/api/combines/${bnpl.id}/sources`, { type: 'bnpl', provider: 'klarna', chargeCents: 15_000 }));
  const bnplSource = (added.body as { sources: Array<{ id: string }> }).sources[0]!.id;
  await ok(user.request(url, 'POST', `/api/combines/${bnpl.id}/sources/${bnplSource}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvv: '123' }), 200);
  await complete(url, user, bnpl.id);

  // A completion refused at the last moment (its internal source was spent down after the
  // review): nothing captured; the draft keeps its hold for another try (decision 030).
  const sourceCard = await insertFundedCard(database.db, userId, 20_000);
  const refusedDraft = (await ok(user.request(url, 'POST', '/api/combines', { baseInput: '300', bufferInput: '0', bufferMode: 'percent' }))).body as { id: string };
  await ok(user.request(url, 'POST', `/api/combines/${refusedDraft.id}/sources`, { type: 'credit', provider: 'visa', chargeCents: 20_000, cardNumber: TEST_VISA, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' }));
  await ok(user.request(url, 'POST', `/api/combines/${refusedDraft.id}/sources`, { type: 'internal', sourceCardId: sourceCard, chargeCents: 15_000 }));
  const quote = (await ok(user.request(url, 'POST', `/api/combines/${refusedDraft.id}/quote`, COMPLETE_CHOICES), 200)).body as { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
  await ok(user.request(url, 'POST', `/api/cards/${sourceCard}/purchases`, { merchant: 'Corner Shop', amountCents: 10_000 }, { 'idempotency-key': randomUUID() }));
  const refusedCompletion = await user.request(
    url,
    'POST',
    `/api/combines/${refusedDraft.id}/complete`,
    { ...COMPLETE_CHOICES, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } },
    { 'idempotency-key': randomUUID() },
  );
  expect(refusedCompletion.status, refusedCompletion.text).toBe(409);

  const dropped = await draft(url, user, '200', 2);
  const holds = await queryRows<{ hold: string }>(database.db, `select authorization_id as hold from combine_sources where combine_id = '${dropped}'`);
  expect(holds).toHaveLength(2);
  expect((await user.request(url, 'DELETE', `/api/combines/${dropped}`)).status).toBeLessThan(300);

  const accepted: string[] = [];
  for (const amountCents of [2_500, 4_000]) accepted.push(((await ok(cashout(url, user, card.id, amountCents))).body as { cashout: { id: string } }).cashout.id);
  const key = randomUUID();
  const first = await ok(cashout(url, user, card.id, 1_500, key));
  const again = await ok(cashout(url, user, card.id, 1_500, key));
  accepted.push((first.body as { cashout: { id: string } }).cashout.id);
  const refused = [await cashout(url, user, card.id, card.remainingAmountCents + 100_000)];

  const small = await insertFundedCard(database.db, userId, 3_000);
  const race = await Promise.all(Array.from({ length: 6 }, () => cashout(url, user, small, 1_000)));
  expect(race.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
  for (const answer of race) {
    if (answer.status === 201) accepted.push((answer.body as { cashout: { id: string } }).cashout.id);
    else refused.push(answer);
  }
  return { voidedHolds: holds.map((h) => h.hold), acceptedCashouts: accepted, refusedCashouts: refused, replayed: { first, again } };
}

/** The money the outside systems moved is exactly what was owed, and the answers agree with it. */
async function expectMoneyCounted(database: TestDatabase, file: string, traffic: Traffic[]): Promise<void> {
  await waitForDrain(database.db, 60_000);
  const counted = await countMoney(database.db, file, { voidedHolds: traffic.flatMap((t) => t.voidedHolds) });
  expect(counted.problems).toEqual([]);
  const accepted = traffic.flatMap((t) => t.acceptedCashouts);
  // One payout per accepted cash-out, plus one per due rebate (one BNPL combine per traffic), nothing else.
  expect(counted.payouts).toBe(accepted.length + counted.rebatePayouts);
  expect(counted.rebatePayouts).toBe(traffic.length);
  const [stored] = await queryRows<{ n: number }>(database.db, "select count(*)::int as n from transactions where type = 'cashout'");
  expect(stored?.n).toBe(accepted.length);
  for (const { replayed } of traffic) expect(replayed.again.body).toEqual(replayed.first.body);
  for (const refused of traffic.flatMap((t) => t.refusedCashouts)) expect([400, 402, 403, 409, 422]).toContain(refused.status);
  // Three holds captured per traffic (two card sources, one BNPL one-time card), two voided.
  expect(counted.captures).toBe(traffic.length * 3);
  expect(counted.voids).toBe(traffic.length * 2);
}

describe('money faults: every payout, capture, void and rebate exactly once, whatever breaks', () => {
  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'payweave-money-faults-'));
    await serverBundle();
  }, 60_000);
  afterAll(() => {
    removeServerBundle();
    rmSync(tmp, { recursive: true, force: true });
  });

  it.each([
    ['an adapter error', 'fail'],
    ['a timeout', 'timeout'],
    ['an answer lost after the thing was done', 'lose-answer'],
  ])('%s at capture, void, payout and rebate payout', async (_what, mode) => {
    const database = await createTestDatabase({ poolSize: 4 });
    const file = path.join(tmp, `${mode}.jsonl`);
    const server = await startServer({ databaseUrl: database.url, env: { ...BASE_ENV, DEMO_ADAPTER_LOG: file, DEMO_FAULTS: breakEffects(mode) } });
    try {
      const traffic = [await moneyTraffic(server.url, database)];
      await expectMoneyCounted(database, file, traffic);
      // The faults did happen, and were met by retries.
      const broken = readCallFile(file).filter((c) => c.outcome === 'failed' || c.outcome === 'timed-out' || c.outcome === 'answer-lost');
      // Six numbered calls broken; a lost answer's retry may itself be one of them (a duplicate, not counted).
      expect(broken.length).toBeGreaterThanOrEqual(mode === 'lose-answer' ? 3 : 6);
      console.info(`money faults (${mode}): ${broken.length} calls broken, ${traffic[0]!.acceptedCashouts.length} cash-outs paid once, ${traffic[0]!.refusedCashouts.length} refused paid nothing`);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);

  it('SIGKILL between the commit and the effect, then a restart: the effects are carried out once, with the outside record kept across the crash', async () => {
    const database = await createTestDatabase({ poolSize: 4 });
    const file = path.join(tmp, 'sigkill.jsonl');
    // At the kill every effect is committed and none is confirmed: payouts hang in flight (the
    // provider has done nothing yet), captures are done but their answers lost, voids fail.
    let server: ServerProcess = await startServer({
      databaseUrl: database.url,
      env: {
        ...BASE_ENV,
        DEMO_ADAPTER_LOG: file,
        DEMO_FAULTS: 'payouts.send:timeout@*;processor.capture:lose-answer@*;processor.release:fail@*',
        DEMO_FAULT_TIMEOUT_MS: '600000',
        EFFECT_RETRY_BASE_MS: '1000',
      },
    });
    try {
      const traffic = [await moneyTraffic(server.url, database)];
      await waitForCalls(file, (calls) => calls.some((c) => c.op === 'payouts.send' && c.outcome === 'timed-out') && calls.some((c) => c.op === 'processor.capture' && c.outcome === 'answer-lost'));
      const [pending] = await queryRows<{ n: number }>(database.db, "select count(*)::int as n from money_effects where status <> 'done'");
      expect(pending?.n).toBeGreaterThan(0);
      const lostBeforeKill = readCallFile(file).filter((c) => c.outcome === 'answer-lost').length;
      await server.kill();
      expect(server.child.signalCode).toBe('SIGKILL');

      // The supervisor starts it again on the same database, the outside systems intact.
      server = await startServer({ databaseUrl: database.url, port: server.port, env: { ...BASE_ENV, DEMO_ADAPTER_LOG: file } });
      await expectMoneyCounted(database, file, traffic);
      // And the command an operator runs after an incident agrees.
      const ledger = spawnSync('npm', ['run', '--silent', 'ledger:check'], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, DATA_DIR: tmp, CARD_DATA_KEY: TEST_CARD_DATA_KEY, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(ledger.status, ledger.stderr).toBe(0);
      expect(ledger.stdout).toMatch(/ledger:check ok/);
      // A capture done before the crash, its answer lost, was not done again after it.
      const calls = readCallFile(file);
      const duplicates = calls.filter((c) => c.op === 'processor.capture' && c.outcome === 'duplicate');
      expect(duplicates.length).toBeGreaterThan(0);
      console.info(`money faults (SIGKILL): ${pending?.n} effects unconfirmed at the kill, ${lostBeforeKill} captures done with the answer lost; after the restart all confirmed, ${duplicates.length} answered as duplicates, none done twice`);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);

  it('a restart (SIGTERM) while effects wait for a retry, with traffic on both sides: each effect once', async () => {
    const database = await createTestDatabase({ poolSize: 4 });
    const file = path.join(tmp, 'restart.jsonl');
    // Every capture, void and payout fails until the restart, then waits for its retry.
    let server: ServerProcess = await startServer({
      databaseUrl: database.url,
      env: { ...BASE_ENV, DEMO_ADAPTER_LOG: file, DEMO_FAULTS: 'processor.capture:fail@*;processor.release:fail@*;payouts.send:fail@*', EFFECT_RETRY_BASE_MS: '2000' },
    });
    try {
      const traffic = [await moneyTraffic(server.url, database)];
      await server.stop();
      const moved = (c: DemoCall) => c.outcome === 'done' && (c.op === 'processor.capture' || c.op === 'processor.release' || c.op === 'payouts.send');
      expect(readCallFile(file).filter(moved)).toEqual([]);
      server = await startServer({ databaseUrl: database.url, port: server.port, env: { ...BASE_ENV, DEMO_ADAPTER_LOG: file } });
      traffic.push(await moneyTraffic(server.url, database));
      await expectMoneyCounted(database, file, traffic);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);

  it('40 concurrent $10 cash-outs on a $250 card: exactly 25 accepted and 25 payouts, the 15 refused send nothing', async () => {
    const database = await createTestDatabase({ poolSize: 4 });
    const file = path.join(tmp, 'sweep.jsonl');
    const server = await startServer({ databaseUrl: database.url, env: { ...BASE_ENV, DEMO_ADAPTER_LOG: file } });
    try {
      const user = await registerOver(server.url, `sweep-${randomUUID()}@example.com`, TEST_PASSWORD, '198.51.102.1');
      const userId = ((await user.request(server.url, 'GET', '/api/me')).body as { id: string }).id;
      await ok(user.request(server.url, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach));
      const cardId = await insertFundedCard(database.db, userId, 25_000);
      const answers = await Promise.all(Array.from({ length: 40 }, () => cashout(server.url, user, cardId, 1_000)));
      const accepted = answers.filter((a) => a.status === 201);
      expect(accepted).toHaveLength(25);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(15);
      await waitForDrain(database.db);
      const counted = await countMoney(database.db, file);
      expect(counted.problems).toEqual([]);
      expect(counted.payouts).toBe(25);
      const paid = new Set(readCallFile(file).filter((c) => c.op === 'payouts.send' && c.outcome === 'done').map((c) => c.reference));
      expect(paid).toEqual(new Set(accepted.map((a) => `cashout:${(a.body as { cashout: { id: string } }).cashout.id}`)));
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);
});
