import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { ErrorCode } from '../../contracts/errors';
import { liveModeNotImplemented } from '../lib/errors';
import { DemoCallLog } from './demo-calls';
// docs/rules.md#demo-declines: this one test number always declines in demo mode.
import { DECLINE_TEST_CARD } from '../../core/cards';
import type { ProcessorCardState } from '../../core/card-processor-state';

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
// docs/rules.md#outside-effects: pre-authorisation and card issuing run before the transaction that depends on
// them (issuing with a reference derived from the Idempotency-Key, so a retry gets the same card);
// capture and release (void) only from the money-effects drain, after the commit, each with a
// reference the processor deduplicates by; a card's state (setCardState) only from the card-state
// reconciler, after the commit that changed the card (decision 170).
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
  /**
   * Tells the processor what an issued card (`providerRef`, from issueCard) may do from now on:
   * authorise (`active`), decline until told otherwise (`frozen`), or decline for good (`closed`),
   * so its stand-in processing never approves a card we froze or closed (decision 170). Resolves
   * once the processor holds that state. Only ever called by the reconciler
   * (server/effects/card-states.ts), outside any transaction. `reference`
   * (`card-state:<card>:<n>:<state>`) names one instruction: the n-th for that card, so a retry
   * of it is deduplicated, and a later instruction has a larger n (a processor that orders
   * updates by it can refuse an older one arriving late).
   */
  setCardState(input: { providerRef: string; state: ProcessorCardState; reference: string }): Promise<void>;
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
    async setCardState({ state, reference }) {
      // The reference names the card and the state; the provider reference is not recorded.
      await log.call('processor.setCardState', reference, undefined, () => ({ state }));
    },
  };
}

export const liveCardProcessor: CardProcessor = {
  preauthorize: () => Promise.reject(liveModeNotImplemented()),
  release: () => Promise.reject(liveModeNotImplemented()),
  capture: () => Promise.reject(liveModeNotImplemented()),
  issueCard: () => Promise.reject(liveModeNotImplemented()),
  setCardState: () => Promise.reject(liveModeNotImplemented()),
};
