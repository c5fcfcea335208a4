// "Create Virtual Card": where a combine becomes money on a card, all of it or none of it, as every
// money operation does (money/run-money-operation.ts): the facts read under locks
// (completion-facts.ts) → the core's decision (completion-decision.ts) → one writer
// (completion-write.ts) → the captures and rebate payouts, after the commit. Everything is decided
// from stored data; the client only says which choices it made and which figures it saw (if they
// differ, nothing is charged: 409 quote_changed).
import { randomInt } from 'node:crypto';
import { cardExpiresAt, generateCardNumber, printedExpiry } from '../../../core/cards';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { Adapters } from '../../adapters';
import type { IssuedCard } from '../../adapters/card-processor';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { EffectDrain } from '../../effects/drain';
import { liveModeNotImplemented } from '../../lib/errors';
import { requestFingerprint } from '../../lib/idempotency';
import { runMoneyOperation } from '../../money/run-money-operation';
import { decideCompletion } from './completion-decision';
import { readCompletionFacts, type CompleteInput } from './completion-facts';
import { writeCompletion } from './completion-write';

export { QUOTE_CHANGED_MESSAGE } from '../../../core/plan-completion';
export type { CompleteInput };
export const CREATE_CARD_FAILED = 'Failed to create virtual card';

type Deps = { db: Db; effects: EffectDrain; adapters: Pick<Adapters, 'delay' | 'cardProcessor'>; config: Pick<Config, 'demoMode' | 'cardDataKey'>; now(): Date };

export async function completeCombine(
  deps: Deps,
  userId: string,
  combineId: string,
  input: CompleteInput,
  key: string,
): Promise<{ status: number; body: CompleteCombineResponse; replayed: boolean }> {
  if (!deps.config.demoMode) throw liveModeNotImplemented();
  // Spec: creation takes about 2 s in demo mode; the wait holds no locks.
  await deps.adapters.delay('cardCreation');
  const now = deps.now();
  const fingerprint = requestFingerprint({ method: 'POST', route: `/api/combines/${combineId}/complete`, body: input });
  // The new card is issued before anything is written (docs/rules.md#outside-effects), with a
  // reference derived from the Idempotency-Key: a retry gets the same card from the processor.
  // Issuing moves no money; a completion refused below leaves that card unfunded and unused.
  const issued = await issueCard(deps, userId, key, input.cardType, now);
  const answer = await runMoneyOperation(deps, { userId, key, fingerprint, now }, {
    read: ({ tx, claim }) => readCompletionFacts(tx, { userId, combineId, now, input, issued }, claim),
    decide: (loaded) => decideCompletion(loaded, { userId, input, issued, cardDataKey: deps.config.cardDataKey }),
    write: writeCompletion,
  });
  return { status: answer.status, body: answer.body as CompleteCombineResponse, replayed: answer.replayed };
}

function issueCard(deps: Pick<Deps, 'adapters'>, userId: string, key: string, cardType: CompleteInput['cardType'], now: Date): Promise<IssuedCard> {
  const network = randomInt(2) === 0 ? 'visa' : 'mastercard';
  // The printed MM/YY is the validity end, so the card and the product tell one date (decision 051).
  const printed = printedExpiry(cardExpiresAt(cardType, now));
  return deps.adapters.cardProcessor.issueCard({
    reference: `issue:${userId}:${key}`,
    network,
    expMonth: Number(printed.expiryMonth),
    expYear: 2000 + Number(printed.expiryYear),
    generateNumber: (randomDigit) => generateCardNumber(network, randomDigit),
  });
}
