import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { ErrorCode } from '../../contracts/errors';
import { liveModeNotImplemented } from '../lib/errors';
import { DemoCallLog } from './demo-calls';
// DECISIONS §4: this one test number always declines in demo mode.
import { DECLINE_TEST_CARD } from '../../core/cards';

export type PreauthorizeInput = {
  /**
   * Ours, new for every request that asks for a hold (`preauth:<combine>:<uuid>`): the processor
   * records it with the hold. A hold whose answer was lost is never used and lapses at the processor.
   */
  reference: string;
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvv: string;
  amountCents: number;
};

export type PreauthorizeResult =
  | { ok: true; token: string; authorizationId: string }
  | { ok: false; code: Extract<ErrorCode, 'insufficient_funds' | 'declined'>; message: string };

export type IssuedCard = {
  number: string;
  cvv: string;
  expMonth: number;
  expYear: number;
  network: 'visa' | 'mastercard';
  providerRef: string;
};

// What PayWeave needs from a card processor. The full card number and CVV go in once and
// never come back out: the processor keeps them, PayWeave keeps the token.
// DECISIONS §7: pre-authorisation and card issuing run before the transaction that depends on
// them (issuing with a reference derived from the Idempotency-Key, so a retry gets the same card);
// capture and release (void) only from the money-effects drain, after the commit, each with a
// reference the processor deduplicates by.
export interface CardProcessor {
  preauthorize(input: PreauthorizeInput): Promise<PreauthorizeResult>;
  release(authorizationId: string, reference: string): Promise<void>;
  capture(authorizationId: string, amountCents: number, reference: string): Promise<{ transactionId: string }>;
  issueCard(input: {
    reference: string;
    network: 'visa' | 'mastercard';
    expMonth: number;
    expYear: number;
    generateNumber: (randomDigit: () => number) => string;
  }): Promise<IssuedCard>;
}

export type DemoCardProcessor = CardProcessor & { log: DemoCallLog };

export const INSUFFICIENT_FUNDS_MESSAGE = 'Insufficient funds for pre-authorization';

export function createDemoCardProcessor(options: { declineRate: number; random?: () => number; log?: DemoCallLog }): DemoCardProcessor {
  const random = options.random ?? Math.random;
  const log = options.log ?? new DemoCallLog();
  return {
    log,
    preauthorize(input) {
      // Only the reference and the amount are recorded, never the card number or CVV.
      return log.call('processor.preauthorize', input.reference, input.amountCents, (): PreauthorizeResult => {
        if (input.cardNumber === DECLINE_TEST_CARD || random() < options.declineRate) {
          return { ok: false, code: 'insufficient_funds', message: INSUFFICIENT_FUNDS_MESSAGE };
        }
        return { ok: true, token: `tok_demo_${randomBytes(12).toString('hex')}`, authorizationId: `auth_demo_${randomUUID()}` };
      });
    },
    async release(_authorizationId, reference) {
      await log.call('processor.release', reference, undefined, () => ({ released: true }));
    },
    capture(_authorizationId, amountCents, reference) {
      return log.call('processor.capture', reference, amountCents, () => ({ transactionId: `txn_demo_${randomUUID()}` }));
    },
    issueCard({ reference, network, expMonth, expYear, generateNumber }) {
      return log.call('processor.issueCard', reference, undefined, () => {
        const number = generateNumber(() => randomInt(10));
        const cvv = String(randomInt(1000)).padStart(3, '0');
        return { number, cvv, expMonth, expYear, network, providerRef: `demo_card_${randomUUID()}` };
      });
    },
  };
}

export const liveCardProcessor: CardProcessor = {
  preauthorize: () => Promise.reject(liveModeNotImplemented()),
  release: () => Promise.reject(liveModeNotImplemented()),
  capture: () => Promise.reject(liveModeNotImplemented()),
  issueCard: () => Promise.reject(liveModeNotImplemented()),
};
