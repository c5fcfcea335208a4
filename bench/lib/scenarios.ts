// The four measured scenarios (the floods that run beside honest traffic are in flood.ts). Everything a request needs (accounts, cards, reviewed drafts) is
// prepared through the API first; the measured runs replay prepared requests at full speed.
import { randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { BENCH_PASSWORD, completeBody, completeDraft, mapLimit, prepareDraft, register, saveAchPayoutMethod, upgradeToPremiumPlus, type Draft, type User } from './api';
import { runLoad, type Figures } from './load';
import type { BenchOptions } from './options';

export type ScenarioName = 'sign-in' | 'list-cards' | 'combine-complete' | 'cash-out';
export const SCENARIOS: readonly ScenarioName[] = ['sign-in', 'list-cards', 'combine-complete', 'cash-out'];

export type Prepared = {
  readUsers: User[];
  cashoutCards: Array<{ user: User; cardId: string }>;
  warmupDrafts: Draft[];
  measuredDrafts: Draft[];
};

const PREPARE_CONCURRENCY = 8;
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Interleaves per-user lists (u0[0], u1[0], …, u0[1], …) so that consecutive requests belong to different users. */
function roundRobin<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i += 1) for (const list of lists) if (i < list.length) out.push(list[i] as T);
  return out;
}

export async function prepare(baseUrl: string, options: BenchOptions, wanted: ReadonlySet<ScenarioName>, log: (line: string) => void): Promise<Prepared> {
  const run = randomUUID().slice(0, 8);
  const started = Date.now();
  const prepared: Prepared = { readUsers: [], cashoutCards: [], warmupDrafts: [], measuredDrafts: [] };

  if (wanted.has('sign-in') || wanted.has('list-cards')) {
    // Free plan users with three cards each (the Free plan's monthly limit): what /my-cards lists.
    prepared.readUsers = await mapLimit(Array.from({ length: options.readUsers }, (_, i) => i), PREPARE_CONCURRENCY, async (i) => {
      const user = await register(baseUrl, `bench-read-${run}-${i}@example.com`);
      for (let c = 0; c < 3; c += 1) await completeDraft(baseUrl, await prepareDraft(baseUrl, user, 100 + c * 25));
      return user;
    });
    log(`prepared ${prepared.readUsers.length} users with 3 cards each`);
  }

  if (wanted.has('cash-out')) {
    // One $1,000 card per user, and ACH saved with its details; each cash-out takes $1.00 of it.
    prepared.cashoutCards = await mapLimit(Array.from({ length: options.cashoutUsers }, (_, i) => i), PREPARE_CONCURRENCY, async (i) => {
      const user = await register(baseUrl, `bench-cashout-${run}-${i}@example.com`);
      await saveAchPayoutMethod(baseUrl, user);
      const cardId = await completeDraft(baseUrl, await prepareDraft(baseUrl, user, 1000));
      return { user, cardId };
    });
    log(`prepared ${prepared.cashoutCards.length} cards of $1,000 to cash out from`);
  }

  if (wanted.has('combine-complete')) {
    // Premium+ users (no monthly limit), each with reviewed drafts of two sources.
    const warmupPerUser = Math.max(options.warmupDraftsPerUser, Math.ceil(options.connections / options.combineUsers));
    const users = await mapLimit(Array.from({ length: options.combineUsers }, (_, i) => i), PREPARE_CONCURRENCY, async (i) => {
      const user = await register(baseUrl, `bench-combine-${run}-${i}@example.com`);
      await upgradeToPremiumPlus(baseUrl, user);
      return user;
    });
    const perUser = warmupPerUser + options.draftsPerUser;
    const jobs = users.flatMap((user) => Array.from({ length: perUser }, (_, d) => ({ user, d })));
    const drafts = await mapLimit(jobs, PREPARE_CONCURRENCY, ({ user }) => prepareDraft(baseUrl, user, 100));
    const byUser = users.map((_, u) => drafts.slice(u * perUser, (u + 1) * perUser));
    prepared.warmupDrafts = roundRobin(byUser.map((list) => list.slice(0, warmupPerUser)));
    prepared.measuredDrafts = roundRobin(byUser.map((list) => list.slice(warmupPerUser)));
    log(`prepared ${drafts.length} reviewed drafts of 2 sources for ${users.length} Premium+ users`);
  }
  log(`preparation took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return prepared;
}

function cycle<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing prepared for this scenario');
  let i = 0;
  return () => items[i++ % items.length] as T;
}

/** Each item once. Past the end it repeats the last one (its answer, a 409, then shows as non-2xx). */
function queue<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing prepared for this scenario');
  let i = 0;
  return () => items[Math.min(i++, items.length - 1)] as T;
}

function signInRequest(users: readonly User[]): Request {
  const next = cycle(users);
  return {
    method: 'POST',
    path: '/api/auth/login',
    headers: JSON_HEADERS,
    setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: next().email, password: BENCH_PASSWORD }) }),
  };
}

function listCardsRequest(users: readonly User[]): Request {
  const next = cycle(users);
  return {
    method: 'GET',
    path: '/api/cards',
    setupRequest: (request) => ({ ...request, headers: { cookie: next().cookie } }),
  };
}

function completeRequest(drafts: readonly Draft[]): Request {
  const next = queue(drafts);
  return {
    method: 'POST',
    path: '/api/combines/x/complete',
    setupRequest: (request) => {
      const draft = next();
      return {
        ...request,
        path: `/api/combines/${draft.combineId}/complete`,
        headers: { ...JSON_HEADERS, cookie: draft.user.cookie, 'idempotency-key': randomUUID() },
        body: completeBody(draft),
      };
    },
  };
}

function cashoutRequest(cards: ReadonlyArray<{ user: User; cardId: string }>): Request {
  const next = cycle(cards);
  return {
    method: 'POST',
    path: '/api/cashouts',
    setupRequest: (request) => {
      const { user, cardId } = next();
      return {
        ...request,
        headers: { ...JSON_HEADERS, cookie: user.cookie, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ cardId, amountCents: 100, payoutMethod: 'ach' }),
      };
    },
  };
}

/** Warm-up, then the measured run, of one scenario. */
export async function measureScenario(
  name: ScenarioName,
  baseUrl: string,
  options: BenchOptions,
  prepared: Prepared,
  serverPid: number | undefined,
  databases: string[],
  /** Resolves when the outbox is empty: the money scenarios' windows close then (decision 134). */
  outboxSettled: () => Promise<void> = async () => {},
  /**
   * Runs between the warm-up and the measured run: `vacuum analyze`, so that the plans the
   * measured run uses are made on tables of the size the warm-up left (decision 143).
   */
  afterWarmup: () => Promise<void> = async () => {},
): Promise<Figures> {
  const base = { url: baseUrl, connections: options.connections, serverPid, databases };
  // The warm-up's payouts and captures are sent before the measured window opens, and the
  // window's own before it closes.
  const money = { ...base, settled: outboxSettled };
  switch (name) {
    case 'sign-in': {
      // More sign-ins at once than the argon2id pool admits are answered 503 with Retry-After
      // (docs/rules.md#rate-limits): shedding, not failure. The floor counts the sign-ins that succeeded.
      const shed = { expectedStatuses: [503], connections: options.signInConnections };
      await runLoad({ ...base, ...shed, duration: options.warmupSeconds, requests: [signInRequest(prepared.readUsers)] });
      await afterWarmup();
      return runLoad({ ...base, ...shed, duration: options.measureSeconds, requests: [signInRequest(prepared.readUsers)] });
    }
    case 'list-cards':
      await runLoad({ ...base, duration: options.warmupSeconds, requests: [listCardsRequest(prepared.readUsers)] });
      await afterWarmup();
      return runLoad({ ...base, duration: options.measureSeconds, requests: [listCardsRequest(prepared.readUsers)] });
    case 'combine-complete':
      // Each completion needs its own draft, so these runs are a fixed number of requests.
      await runLoad({ ...money, amount: prepared.warmupDrafts.length, requests: [completeRequest(prepared.warmupDrafts)] });
      await afterWarmup();
      return runLoad({ ...money, amount: prepared.measuredDrafts.length, requests: [completeRequest(prepared.measuredDrafts)] });
    case 'cash-out':
      await runLoad({ ...money, duration: options.warmupSeconds, requests: [cashoutRequest(prepared.cashoutCards)] });
      await afterWarmup();
      return runLoad({ ...money, duration: options.measureSeconds, requests: [cashoutRequest(prepared.cashoutCards)] });
  }
}
