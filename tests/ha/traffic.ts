// The clients of `npm run test:ha`: a steady stream of money requests (card creations, cash-outs,
// purchases), each with its own Idempotency-Key, sent round-robin to the app instances. A request
// that fails (no answer, a 5xx, or 409 "still being processed") is sent again with the same key and
// the same body, after a growing pause, as a careful client would; every attempt is recorded.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { PAYOUT_DETAILS, TEST_PASSWORD, TEST_VISA } from '../helpers/api-client';
import { registerOver, type HttpAnswer, type HttpUser } from '../helpers/server-process';

export type Kind = 'completion' | 'cashout' | 'purchase';

export type Attempt = { instance: number; startedAt: number; endedAt: number; status: number | 'no answer'; error?: string };

export type MoneyRequest = {
  kind: Kind;
  user: number;
  key: string;
  attempts: Attempt[];
  /** The answer that ended it (2xx), or the last one when it never succeeded. */
  final?: HttpAnswer;
  /** The row the answer named: the cash-out's or purchase's transaction, the completion's card. */
  rowId?: string;
};

const COMPLETE_CHOICES = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' } as const;
/** Pauses between attempts of one request: 100 ms doubling up to 1 s. */
export const BACKOFF_MS = [100, 200, 400, 800, 1_000];
/** A request still failing after this long is given up (and fails the test). */
const GIVE_UP_AFTER_MS = 60_000;
const THINK_TIME_MS = 40;

type Draft = { combineId: string; expected: { cardAmountCents: number; totalChargedCents: number; productFeeCents: number } };

export type Client = { index: number; user: HttpUser; cardId: string; base: string; draftsAbandoned: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ok(answer: Promise<HttpAnswer>, status: number, what: string): Promise<HttpAnswer> {
  const got = await answer;
  if (got.status !== status) throw new Error(`${what}: ${got.status} ${got.text}`);
  return got;
}

/** A combine funded by one test Visa card and quoted, ready for its completion. */
async function prepareDraft(user: HttpUser, base: string, dollars: number): Promise<Draft> {
  const created = await ok(user.request(base, 'POST', '/api/combines', { baseInput: String(dollars), bufferInput: '0', bufferMode: 'percent' }), 201, 'create combine');
  const combine = created.body as { id: string; funding: { suggestedChargeCents: { card: number } } };
  await ok(
    user.request(base, 'POST', `/api/combines/${combine.id}/sources`, {
      type: 'credit',
      provider: 'visa',
      chargeCents: combine.funding.suggestedChargeCents.card,
      cardNumber: TEST_VISA,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvv: '123',
    }),
    201,
    'add source',
  );
  const quote = (await ok(user.request(base, 'POST', `/api/combines/${combine.id}/quote`, COMPLETE_CHOICES), 200, 'quote')).body as Draft['expected'];
  return { combineId: combine.id, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } };
}

/** A user on Premium+ (no monthly limit on card creations) with one $2,000 card to cash out of and buy with. */
export async function prepareClient(index: number, base: string): Promise<Client> {
  const user = await registerOver(base, `ha-${index}-${randomUUID()}@example.com`, TEST_PASSWORD, `198.51.100.${index + 1}`);
  await ok(
    user.request(base, 'POST', '/api/subscription/upgrade', {
      plan: 'premium+',
      billingCycle: 'monthly',
      card: { name: 'Ha Tester', number: TEST_VISA, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    }),
    200,
    'upgrade',
  );
  await ok(user.request(base, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach), 201, 'payout method');
  const big = await prepareDraft(user, base, 2_000);
  const done = await ok(user.request(base, 'POST', `/api/combines/${big.combineId}/complete`, { ...COMPLETE_CHOICES, expected: big.expected }, { 'idempotency-key': randomUUID() }), 201, 'complete');
  const cardId = (done.body as { card: { id: string } }).card.id;
  return { index, user, cardId, base, draftsAbandoned: 0 };
}

function retryable(answer: HttpAnswer): boolean {
  if (answer.status >= 500) return true;
  // The same key is still being worked on elsewhere (the first attempt's transaction is open).
  return answer.status === 409 && (answer.body as { error?: { code?: string } } | null)?.error?.code === 'conflict';
}

/** Sends one money request until it succeeds, with the same key and body every time. */
async function send(client: Client, instances: () => string[], request: MoneyRequest, method: string, url: string, body: unknown, turn: number): Promise<void> {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    const bases = instances();
    const instance = (turn + attempt) % bases.length;
    const startedAt = Date.now();
    try {
      const answer = await client.user.request(bases[instance]!, method, url, body, { 'idempotency-key': request.key });
      request.attempts.push({ instance, startedAt, endedAt: Date.now(), status: answer.status, ...(answer.status >= 300 ? { error: answer.text.slice(0, 200) } : {}) });
      request.final = answer;
      if (!retryable(answer)) return;
    } catch (error) {
      request.attempts.push({ instance, startedAt, endedAt: Date.now(), status: 'no answer', error: (error as Error).message });
    }
    if (Date.now() - started > GIVE_UP_AFTER_MS) return;
    await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!);
  }
}

/** One client's loop: cash-out, purchase, card creation, in turn, until `stopped()`. */
async function runClient(client: Client, instances: () => string[], stopped: () => boolean, log: MoneyRequest[]): Promise<void> {
  for (let turn = client.index; !stopped(); turn += 1) {
    const kind = (['cashout', 'purchase', 'completion'] as const)[turn % 3]!;
    if (kind === 'completion') {
      // The draft is made just before (creating, funding and quoting a combine moves no money and
      // takes no key): when the database is away it fails, and the client starts a new one later.
      let draft: Draft;
      try {
        draft = await prepareDraft(client.user, instances()[turn % instances().length]!, 20 + (turn % 50));
      } catch {
        client.draftsAbandoned += 1;
        await sleep(BACKOFF_MS[1]!);
        continue;
      }
      const request: MoneyRequest = { kind, user: client.index, key: randomUUID(), attempts: [] };
      log.push(request);
      await send(client, instances, request, 'POST', `/api/combines/${draft.combineId}/complete`, { ...COMPLETE_CHOICES, expected: draft.expected }, turn);
      if (request.final?.status === 201) request.rowId = (request.final.body as { card: { id: string } }).card.id;
    } else {
      const request: MoneyRequest = { kind, user: client.index, key: randomUUID(), attempts: [] };
      log.push(request);
      if (kind === 'cashout') {
        await send(client, instances, request, 'POST', '/api/cashouts', { cardId: client.cardId, amountCents: 100, payoutMethod: 'ach' }, turn);
        if (request.final?.status === 201) request.rowId = (request.final.body as { cashout: { id: string } }).cashout.id;
      } else {
        await send(client, instances, request, 'POST', `/api/cards/${client.cardId}/purchases`, { merchant: 'Failover Coffee', amountCents: 100 }, turn);
        if (request.final?.status === 201) request.rowId = (request.final.body as { transaction: { id: string } }).transaction.id;
      }
    }
    await sleep(THINK_TIME_MS);
  }
}

/** Starts every client's loop; the returned function stops them and waits for their last request. */
export function startStream(clients: Client[], instances: () => string[], log: MoneyRequest[]): () => Promise<void> {
  let stop = false;
  const running = Promise.all(clients.map((client) => runClient(client, instances, () => stop, log)));
  return async () => {
    stop = true;
    await running;
  };
}

export type Window = {
  /** ms from the event to the first 2xx answer of an attempt sent after it. */
  firstWriteMs: number;
  /** The longest time without a 2xx answer, from the last one before the event. */
  longestGapMs: number;
  /** Attempts that failed after the event (no answer, 5xx, 409 in flight), and how: status → count. */
  failedAttempts: number;
  failures: Record<string, number>;
  /** Requests that needed more than one attempt. */
  retriedRequests: number;
};

const failedStatus = (a: Attempt) => a.status === 'no answer' || a.status >= 500 || a.status === 409;

/** What the clients saw from `eventAt`: how long until a write succeeded again, and what failed. */
export function windowAfter(log: MoneyRequest[], eventAt: number): Window {
  const attempts = log.flatMap((r) => r.attempts.map((a) => ({ ...a, request: r })));
  const successes = attempts.filter((a) => typeof a.status === 'number' && a.status < 300).sort((x, y) => x.endedAt - y.endedAt);
  const firstSuccess = successes.find((a) => a.startedAt >= eventAt);
  expect(firstSuccess, 'no write succeeded after the event').toBeDefined();
  let longestGapMs = 0;
  let previous = successes.filter((a) => a.endedAt < eventAt).pop()?.endedAt ?? eventAt;
  for (const a of successes.filter((s) => s.endedAt >= eventAt)) {
    longestGapMs = Math.max(longestGapMs, a.endedAt - previous);
    previous = a.endedAt;
  }
  const failed = attempts.filter((a) => a.endedAt >= eventAt && failedStatus(a));
  const failures: Record<string, number> = {};
  for (const a of failed) failures[String(a.status)] = (failures[String(a.status)] ?? 0) + 1;
  return {
    firstWriteMs: firstSuccess!.endedAt - eventAt,
    longestGapMs,
    failedAttempts: failed.length,
    failures,
    retriedRequests: new Set(failed.map((a) => a.request)).size,
  };
}
