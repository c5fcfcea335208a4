// What an accepted money operation writes, in the core's terms, whichever planner decided it
// (docs/rules.md#deciding-vs-doing). One shape for the five planners, so one property test
// (write-set.test.ts) holds every operation to the same rules: balanced journals
// (docs/rules.md#ledger), card figures (docs/rules.md#card-figures) and one outside effect per
// thing sent (docs/rules.md#outside-effects). Only money is here: the rows the user sees, counters
// and the subscriber's new plan stay in each plan. The adapters, one per planner
// (write-set-of.ts), project a plan onto this shape and decide nothing.
import { assertJournalBalanced, type CardDebit, type JournalLine, type RefusalCode } from './money-plan';
import type { PayoutMethod } from './plans';

export type MoneyOperation = 'completion' | 'cashout' | 'purchase' | 'rebate_payouts' | 'subscription_payment';

/**
 * A card the operation takes money from: the guarded debit the server runs, and the card's balance
 * either side. The facts give a debited card's remaining, not its original, so the identity
 * original = spent + remaining is carried as a change: it holds after the debit when it held
 * before and spent grows by exactly what remaining loses (every debit is spent:
 * docs/decisions/103-every-debit-counts-as-spent.md).
 */
export type DebitedCard = { debit: CardDebit; remainingBeforeCents: number; remainingAfterCents: number; spentAddedCents: number };

/** A card the operation issues, with its money as it is written. */
export type IssuedCard = { cardId: string; originalCents: number; spentCents: number; remainingCents: number };

export type MoneyJournal = {
  kind: 'combine_completion' | 'cashout' | 'purchase' | 'rebate_payout' | 'subscription';
  memo: string;
  lines: JournalLine[];
};

/** Sent after the commit, from the outbox: each names what it is for. */
export type OutsideEffect =
  | { kind: 'capture'; amountCents: number; authorizationId: string }
  | { kind: 'payout'; amountCents: number; method: PayoutMethod; destination: string }
  | { kind: 'rebate_payout'; amountCents: number; rebate: string; method: PayoutMethod; destination: string };

/**
 * A BNPL rebate (docs/rules.md#bnpl-rebate): `rebate` is a pending rebate's id or, for one a
 * completion records, its BNPL source's id (the server names the new row).
 */
export type RebateAmount = { rebate: string; amountCents: number };

type Writes = {
  cardDebits: DebitedCard[];
  cardsIssued: IssuedCard[];
  journals: MoneyJournal[];
  /** Rebates this operation records as owed to the user. */
  rebatesOwed: RebateAmount[];
  /** Rebates this operation settles: a payout each, or none for a zero rebate. */
  rebatesPaid: RebateAmount[];
  effects: OutsideEffect[];
};

export type AcceptedWriteSet = Writes & { operation: MoneyOperation; accepted: true };

/**
 * A refused operation writes no money and sends nothing: the same lists, each empty by type, so a
 * reader sums any write set without asking first. A purchase's decline is one (`declined`, with
 * its reason): the server keeps a declined row for the merchant's answer, and no money moves.
 */
export type RefusedWriteSet = { [K in keyof Writes]: [] } & {
  operation: MoneyOperation;
  accepted: false;
  refusal: { code: RefusalCode | 'declined'; reason: string };
};

export type MoneyWriteSet = AcceptedWriteSet | RefusedWriteSet;

export function refusedWriteSet(operation: MoneyOperation, code: RefusedWriteSet['refusal']['code'], reason: string): RefusedWriteSet {
  return { operation, accepted: false, refusal: { code, reason }, cardDebits: [], cardsIssued: [], journals: [], rebatesOwed: [], rebatesPaid: [], effects: [] };
}

export function acceptedWriteSet(operation: MoneyOperation, writes: Partial<Writes>): AcceptedWriteSet {
  return { operation, accepted: true, cardDebits: [], cardsIssued: [], journals: [], rebatesOwed: [], rebatesPaid: [], effects: [], ...writes };
}

/**
 * TIGER_STYLE: the rules every write set holds, asserted by the server before it writes one
 * (money/run-money-operation.ts) and held by property over every planner (write-set.test.ts). A
 * write set that breaks one is a bug in a planner: nothing of it may be written.
 */
export function assertWriteSetHolds(writeSet: MoneyWriteSet): void {
  const fail = (what: string) => {
    throw new Error(`${writeSet.operation} write set: ${what}`);
  };
  const cents = (value: number) => Number.isSafeInteger(value);
  for (const journal of writeSet.journals) assertJournalBalanced(journal.lines);
  const debitedCards = new Set<string>();
  for (const { debit, remainingBeforeCents, remainingAfterCents, spentAddedCents } of writeSet.cardDebits) {
    if (!cents(debit.amountCents) || debit.amountCents <= 0) fail(`a debit of ${debit.amountCents} cents`);
    if (debitedCards.has(debit.cardId)) fail(`card ${debit.cardId} debited twice`);
    debitedCards.add(debit.cardId);
    if (remainingAfterCents < 0 || remainingAfterCents !== remainingBeforeCents - debit.amountCents) fail(`card ${debit.cardId} left at ${remainingAfterCents} cents`);
    if (spentAddedCents !== debit.amountCents) fail(`card ${debit.cardId}: spent grows by ${spentAddedCents}, remaining falls by ${debit.amountCents}`);
  }
  for (const card of writeSet.cardsIssued) {
    if (card.originalCents <= 0 || card.remainingCents < 0 || card.originalCents !== card.spentCents + card.remainingCents) fail(`card ${card.cardId} issued with original ≠ spent + remaining`);
  }
  for (const effect of writeSet.effects) {
    if (!cents(effect.amountCents) || effect.amountCents <= 0) fail(`a ${effect.kind} of ${effect.amountCents} cents`);
  }
}
