// Latency as docs/rules.md#perf-latency measures it: each answer alone, at a steady open-loop rate of
// half the capacity measured in the same run. At 32 saturating connections a 2-core host queues
// every request by design (Little's law: 32 in flight over the answers a second), so the p99 there
// is the queue, not the answer; at half the capacity it is what a user meets on a busy day.
import type { Draft } from './api';
import { runHonest, type HonestFigures } from './honest';
import { cashoutRequests, completeRequests, listCardsRequests, purchaseRequests, type NextRequest } from './requests';
import type { Prepared, ScenarioName } from './scenarios';

/** The open-loop rate as a share of the capacity (answers/s at the bench's connections). */
export const LATENCY_SHARE = 0.5;
/**
 * At most this many a second (BENCH_LATENCY_MAX_RATE). Half a card list's capacity is 10,000 to
 * 20,000 a second on a quiet host; sent one request at a time, without the batching of 32 busy
 * connections, each costs the server about twice the CPU, and the sender shares the two cores:
 * at 20,000 a second the requests queued for seconds, a figure of the sender and not of the
 * server (decision 187). The money answers' half capacity is a few hundred a second, far below.
 */
export const LATENCY_MAX_RATE = 5_000;

export type LatencyFigures = HonestFigures & {
  /** Answers/s of the closed-loop run the rate comes from. */
  capacity: number;
  /** Requests sent per second. */
  rate: number;
  /** Whether the rate is LATENCY_MAX_RATE rather than half the capacity. */
  capped: boolean;
  seconds: number;
};

/** The open-loop rate for a capacity: half of it, at most `maxRate`. */
export function latencyRate(capacity: number, maxRate = LATENCY_MAX_RATE): number {
  return Math.min(capacity * LATENCY_SHARE, maxRate);
}

/** How many requests an open-loop run of `seconds` at `rate` sends (each completion needs its own draft). */
export function latencyRequestCount(rate: number, seconds: number): number {
  return Math.max(1, Math.floor(seconds * rate));
}

export function latencyRequests(name: ScenarioName, prepared: Prepared, drafts: readonly Draft[]): NextRequest {
  switch (name) {
    case 'list-cards':
      return listCardsRequests(prepared.readUsers);
    case 'combine-complete':
      return completeRequests(drafts);
    case 'cash-out':
      return cashoutRequests(prepared.cashoutCards);
    case 'purchase':
      return purchaseRequests(prepared.purchaseCards);
    case 'sign-in':
      throw new Error('sign-in has no latency floor (docs/rules.md#perf-latency)');
  }
}

export async function measureLatency(baseUrl: string, next: NextRequest, capacity: number, seconds: number, maxRate = LATENCY_MAX_RATE): Promise<LatencyFigures> {
  const rate = latencyRate(capacity, maxRate);
  const out = await runHonest(baseUrl, [{ name: 'latency', rate, next }], seconds, 'sockets');
  const figures = out.latency;
  if (!figures) throw new Error('the open-loop run gave no figures');
  return { ...figures, capacity, rate, capped: rate < capacity * LATENCY_SHARE, seconds };
}
