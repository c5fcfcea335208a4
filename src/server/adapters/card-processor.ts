import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { liveModeNotImplemented } from '../lib/errors';
// DECISIONS §4: this one test number always declines in demo mode.
import { DECLINE_TEST_CARD } from '../../core/cards';

export type PreauthorizeInput = {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvv: string;
  amountCents: number;
};

export type PreauthorizeResult =
  | { ok: true; token: string; authorizationId: string }
  | { ok: false; code: 'insufficient_funds' | 'declined'; message: string };

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
export interface CardProcessor {
  preauthorize(input: PreauthorizeInput): Promise<PreauthorizeResult>;
  release(authorizationId: string): Promise<void>;
  capture(authorizationId: string, amountCents: number): Promise<{ transactionId: string }>;
  issueCard(input: { network: 'visa' | 'mastercard'; expMonth: number; expYear: number; generateNumber: (randomDigit: () => number) => string }): Promise<IssuedCard>;
}

export const INSUFFICIENT_FUNDS_MESSAGE = 'Insufficient funds for pre-authorization';

export function createDemoCardProcessor(options: { declineRate: number; random?: () => number }): CardProcessor {
  const random = options.random ?? Math.random;
  return {
    async preauthorize(input) {
      if (input.cardNumber === DECLINE_TEST_CARD || random() < options.declineRate) {
        return { ok: false, code: 'insufficient_funds', message: INSUFFICIENT_FUNDS_MESSAGE };
      }
      return { ok: true, token: `tok_demo_${randomBytes(12).toString('hex')}`, authorizationId: `auth_demo_${randomUUID()}` };
    },
    async release() {},
    async capture() {
      return { transactionId: `txn_demo_${randomUUID()}` };
    },
    async issueCard({ network, expMonth, expYear, generateNumber }) {
      const number = generateNumber(() => randomInt(10));
      const cvv = String(randomInt(1000)).padStart(3, '0');
      return { number, cvv, expMonth, expYear, network, providerRef: `demo_card_${randomUUID()}` };
    },
  };
}

export const liveCardProcessor: CardProcessor = {
  preauthorize: () => Promise.reject(liveModeNotImplemented()),
  release: () => Promise.reject(liveModeNotImplemented()),
  capture: () => Promise.reject(liveModeNotImplemented()),
  issueCard: () => Promise.reject(liveModeNotImplemented()),
};
