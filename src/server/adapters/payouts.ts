import { randomUUID } from 'node:crypto';
import type { PayTo } from '../../core/payout-details';
import { liveModeNotImplemented } from '../lib/errors';
import { DemoCallLog } from './demo-calls';

export type PayoutMethod = 'ach' | 'paypal' | 'cashapp';

// Sends money out of PayWeave (cash-outs, BNPL rebates), to destinations registered beforehand
// (decision 168). `reference` is ours and the provider deduplicates by it: the same reference sent
// twice is one payout, the same registration reference twice is one destination.
export interface PayoutProvider {
  /**
   * Registers where a payout method's money goes, from what the user typed in full (`payTo`: for
   * ACH the bank's routing number and the account number (decision 171), the PayPal e-mail, the
   * $cashtag; checked by core/payout-details.ts, its `method` the same as `method`), and answers
   * the provider's opaque reference to it, the only thing kept. Moves no money: called after the
   * checks that allow saving the method and before the transaction that saves it, never inside one
   * (docs/rules.md#outside-effects). `payTo` is never stored, logged or recorded (a censored log field).
   */
  registerDestination(input: { method: PayoutMethod; payTo: PayTo; reference: string }): Promise<{ destinationRef: string }>;
  /**
   * Only ever called by the money-effects drain, after the commit that decided the payout
   * (docs/rules.md#outside-effects). `destination`: the reference registered for the method, as the payout's
   * transaction decided it; null when unknown (a method saved without details, or an outbox row
   * written before decision 168). A live provider refuses a payout without one.
   */
  send(input: { method: PayoutMethod; amountCents: number; reference: string; destination: string | null }): Promise<{ payoutId: string }>;
}

export type DemoPayouts = PayoutProvider & { log: DemoCallLog };

/** A registration's reference: new for every save (a save moves no money; a retried one that registered twice leaves an unused destination). */
export const destinationRegistrationReference = () => `destination:${randomUUID()}`;

/**
 * Demo payouts make up ids, record every call and can be broken on purpose (demo-calls.ts). What
 * the user typed is not recorded (neither the account number nor the routing number): a
 * registration's record holds its reference and the destination made up for it; a payout's, the
 * destination it was sent to.
 */
export function createDemoPayouts(log: DemoCallLog = new DemoCallLog()): DemoPayouts {
  return {
    log,
    registerDestination(input) {
      return log.call('payouts.registerDestination', input.reference, undefined, () => ({ destinationRef: `demo_dest_${randomUUID()}` }), (result) => result.destinationRef);
    },
    send(input) {
      return log.call('payouts.send', input.reference, input.amountCents, () => ({ payoutId: `payout_demo_${randomUUID()}` }), input.destination);
    },
  };
}

export const livePayouts: PayoutProvider = {
  registerDestination: () => Promise.reject(liveModeNotImplemented()),
  send: () => Promise.reject(liveModeNotImplemented()),
};
