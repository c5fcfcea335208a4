import { randomUUID } from 'node:crypto';
import { liveModeNotImplemented } from '../lib/errors';
import { DemoCallLog } from './demo-calls';

export type PayoutMethod = 'ach' | 'paypal' | 'cashapp';

// Sends money out of PayWeave (cash-outs, BNPL rebates). Only ever called by the money-effects
// drain, after the commit that decided the payout (DECISIONS §7). `reference` is ours and the
// provider deduplicates by it: the same reference sent twice is one payout.
export interface PayoutProvider {
  send(input: { method: PayoutMethod; amountCents: number; reference: string }): Promise<{ payoutId: string }>;
}

export type DemoPayouts = PayoutProvider & { log: DemoCallLog };

/** Demo payouts make up an id, record every call and can be broken on purpose (demo-calls.ts). */
export function createDemoPayouts(log: DemoCallLog = new DemoCallLog()): DemoPayouts {
  return {
    log,
    send(input) {
      return log.call('payouts.send', input.reference, input.amountCents, () => ({ payoutId: `payout_demo_${randomUUID()}` }));
    },
  };
}

export const livePayouts: PayoutProvider = {
  send: () => Promise.reject(liveModeNotImplemented()),
};
