// The measured scenarios (the floods that run beside honest traffic are in flood.ts). Everything a
// request needs (accounts, cards, reviewed drafts) is prepared through the API first; the measured
// runs replay prepared requests at full speed (requests.ts).
import { randomUUID } from 'node:crypto';
import { completeDraft, mapLimit, prepareDraft, register, saveAchPayoutMethod, upgradeToPremiumPlus, type Draft, type User } from './api';
import { runLoad, type Figures, type LoadSpec } from './load';
import type { BenchOptions } from './options';
import { cashoutRequests, completeRequests, forAutocannon, listCardsRequests, purchaseRequests, signInRequests, type NextRequest, type OwnedCard } from './requests';

export type ScenarioName = 'sign-in' | 'list-cards' | 'combine-complete' | 'cash-out' | 'purchase';
export const SCENARIOS: readonly ScenarioName[] = ['sign-in', 'list-cards', 'combine-complete', 'cash-out', 'purchase'];
/** The money answers (docs/rules.md#perf-same-run): none may get more than 5% dearer than the ref. */
export const MONEY_SCENARIOS: readonly ScenarioName[] = ['combine-complete', 'cash-out', 'purchase'];
/** Every answer but sign-in has a p99 floor (docs/rules.md#perf-latency). */
export const LATENCY_SCENARIOS: readonly ScenarioName[] = ['list-cards', 'combine-complete', 'cash-out', 'purchase'];

export type Prepared = {
  readUsers: User[];
  cashoutCards: OwnedCard[];
  purchaseCards: OwnedCard[];
  /** Premium+ users whose drafts are completed; more drafts are made for them as needed. */
  combineUsers: User[];
  /** For each round: the warm-up's drafts and the measured run's, consecutive ones of different users. */
  drafts: Array<{ warmup: Draft[]; measured: Draft[] }>;
};

const PREPARE_CONCURRENCY = 8;
/**
 * A cash-out or a purchase takes $1.00 of a card: $5,000 each leaves room for every round of a
 * fast host (1,000 answers/s over 64 cards, warm-ups, rounds and the latency run together).
 */
const SPENDING_CARD_DOLLARS = 5_000;

/** Interleaves per-user lists (u0[0], u1[0], …, u0[1], …) so that consecutive requests belong to different users. */
function roundRobin<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i += 1) for (const list of lists) if (i < list.length) out.push(list[i] as T);
  return out;
}

/** `perUser` reviewed drafts of 2 sources for each user, interleaved by user. */
export async function prepareDrafts(baseUrl: string, users: readonly User[], perUser: number): Promise<Draft[]> {
  const jobs = users.flatMap((user) => Array.from({ length: perUser }, () => user));
  const drafts = await mapLimit(jobs, PREPARE_CONCURRENCY, (user) => prepareDraft(baseUrl, user, 100));
  return roundRobin(users.map((_, u) => drafts.slice(u * perUser, (u + 1) * perUser)));
}

async function spendingCards(baseUrl: string, count: number, prefix: string): Promise<OwnedCard[]> {
  return mapLimit(Array.from({ length: count }, (_, i) => i), PREPARE_CONCURRENCY, async (i) => {
    const user = await register(baseUrl, `${prefix}-${i}@example.com`);
    await saveAchPayoutMethod(baseUrl, user);
    const cardId = await completeDraft(baseUrl, await prepareDraft(baseUrl, user, SPENDING_CARD_DOLLARS));
    return { user, cardId };
  });
}

export async function prepare(baseUrl: string, options: BenchOptions, wanted: ReadonlySet<ScenarioName>, log: (line: string) => void): Promise<Prepared> {
  const run = randomUUID().slice(0, 8);
  const started = Date.now();
  const prepared: Prepared = { readUsers: [], cashoutCards: [], purchaseCards: [], combineUsers: [], drafts: [] };

  if (wanted.has('sign-in') || wanted.has('list-cards')) {
    // Free plan users with three cards each (the Free plan's monthly limit): what /my-cards lists.
    prepared.readUsers = await mapLimit(Array.from({ length: options.readUsers }, (_, i) => i), PREPARE_CONCURRENCY, async (i) => {
      const user = await register(baseUrl, `bench-read-${run}-${i}@example.com`);
      for (let c = 0; c < 3; c += 1) await completeDraft(baseUrl, await prepareDraft(baseUrl, user, 100 + c * 25));
      return user;
    });
    log(`prepared ${prepared.readUsers.length} users with 3 cards each`);
  }

  // One $5,000 card per user, and ACH saved with its details (a cash-out is paid only to a
  // registered destination, decision 172); each cash-out or purchase takes $1.00 of it.
  if (wanted.has('cash-out')) {
    prepared.cashoutCards = await spendingCards(baseUrl, options.cashoutUsers, `bench-cashout-${run}`);
    log(`prepared ${prepared.cashoutCards.length} cards of $${SPENDING_CARD_DOLLARS.toLocaleString('en-US')} to cash out from`);
  }
  if (wanted.has('purchase')) {
    prepared.purchaseCards = await spendingCards(baseUrl, options.purchaseUsers, `bench-purchase-${run}`);
    log(`prepared ${prepared.purchaseCards.length} cards of $${SPENDING_CARD_DOLLARS.toLocaleString('en-US')} to buy with`);
  }

  if (wanted.has('combine-complete')) {
    // Premium+ users (no monthly limit), each with reviewed drafts of two sources for every round.
    const warmupPerUser = Math.max(options.warmupDraftsPerUser, Math.ceil(options.connections / options.combineUsers));
    prepared.combineUsers = await mapLimit(Array.from({ length: options.combineUsers }, (_, i) => i), PREPARE_CONCURRENCY, async (i) => {
      const user = await register(baseUrl, `bench-combine-${run}-${i}@example.com`);
      await upgradeToPremiumPlus(baseUrl, user);
      return user;
    });
    for (let round = 0; round < options.rounds; round += 1) {
      prepared.drafts.push({
        warmup: await prepareDrafts(baseUrl, prepared.combineUsers, warmupPerUser),
        measured: await prepareDrafts(baseUrl, prepared.combineUsers, options.draftsPerUser),
      });
    }
    const count = prepared.drafts.reduce((sum, d) => sum + d.warmup.length + d.measured.length, 0);
    log(`prepared ${count} reviewed drafts of 2 sources for ${prepared.combineUsers.length} Premium+ users (${options.rounds} round${options.rounds > 1 ? 's' : ''})`);
  }
  log(`preparation took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return prepared;
}

/** Warm-up, then the measured run, of one scenario in one round. */
export async function measureScenario(
  name: ScenarioName,
  baseUrl: string,
  options: BenchOptions,
  prepared: Prepared,
  round: number,
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
  const timed = async (spec: Omit<LoadSpec, 'requests'>, make: () => NextRequest) => {
    await runLoad({ ...spec, duration: options.warmupSeconds, requests: [forAutocannon(make())] });
    await afterWarmup();
    return runLoad({ ...spec, duration: options.measureSeconds, requests: [forAutocannon(make())] });
  };
  switch (name) {
    case 'sign-in':
      // More sign-ins at once than the argon2id pool admits are answered 503 with Retry-After
      // (docs/rules.md#rate-limits): shedding, not failure. The ratio counts the sign-ins that succeeded.
      return timed({ ...base, connections: options.signInConnections, expectedStatuses: [503] }, () => signInRequests(prepared.readUsers));
    case 'list-cards':
      return timed(base, () => listCardsRequests(prepared.readUsers));
    case 'combine-complete': {
      // Each completion needs its own draft, so these runs are a fixed number of requests.
      const drafts = prepared.drafts[round];
      if (!drafts) throw new Error(`no drafts prepared for round ${round + 1}`);
      await runLoad({ ...money, amount: drafts.warmup.length, requests: [forAutocannon(completeRequests(drafts.warmup))] });
      await afterWarmup();
      return runLoad({ ...money, amount: drafts.measured.length, requests: [forAutocannon(completeRequests(drafts.measured))] });
    }
    case 'cash-out':
      return timed(money, () => cashoutRequests(prepared.cashoutCards));
    case 'purchase':
      return timed(money, () => purchaseRequests(prepared.purchaseCards));
  }
}
