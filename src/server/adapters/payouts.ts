import { randomUUID } from 'node:crypto';
import { liveModeNotImplemented } from '../lib/errors';

export type PayoutMethod = 'ach' | 'paypal' | 'cashapp';

// Sends money out of PayWeave (cash-outs, BNPL rebates). Demo payouts only make up an id.
export interface PayoutProvider {
  send(input: { method: PayoutMethod; amountCents: number; reference: string }): Promise<{ payoutId: string }>;
}

export function createDemoPayouts(): PayoutProvider {
  return {
    async send() {
      return { payoutId: `payout_demo_${randomUUID()}` };
    },
  };
}

export const livePayouts: PayoutProvider = {
  send: () => Promise.reject(liveModeNotImplemented()),
};
