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

export type LatencyFigures = HonestFigures & {
  /** Answers/s of the closed-loop run the rate comes from. */
  capacity: number;
  /** Requests sent per second. */
  rate: number;
  seconds: number;
};

/** How many requests an open-loop run of `seconds` at half of `capacity` sends (each completion needs its own draft). */
export function latencyRequestCount(capacity: number, seconds: number): number {
  return Math.max(1, Math.floor(seconds * capacity * LATENCY_SHARE));
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

export async function measureLatency(baseUrl: string, next: NextRequest, capacity: number, seconds: number): Promise<LatencyFigures> {
  const rate = capacity * LATENCY_SHARE;
  const out = await runHonest(baseUrl, [{ name: 'latency', rate, next }], seconds, 'sockets');
  const figures = out.latency;
  if (!figures) throw new Error('the open-loop run gave no figures');
  return { ...figures, capacity, rate, seconds };
}
