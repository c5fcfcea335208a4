// A demo purchase decided (docs/rules.md#screens, docs/rules.md#cards): approved, with the debit and its journal, or
// declined with the reason the merchant is told. A single-use card closes when a purchase empties it.
import { assertJournalBalanced, isCardValidAt, type CardDebit, type CardFacts, type JournalLine } from './money-plan';

export type PurchaseDeclineReason = 'insufficient_balance' | 'frozen' | 'expired' | 'closed';

export type PurchaseFacts = {
  card: Pick<CardFacts, 'id' | 'status' | 'frozen' | 'validUntil' | 'remainingAmountCents'> & { type: string };
  amountCents: number;
  merchant: string;
  now: Date;
};

export type PurchasePlan =
  | { ok: true; debit: CardDebit; journal: { kind: 'purchase'; memo: string; lines: JournalLine[] } }
  | { ok: false; decline: PurchaseDeclineReason };

/** Why this card cannot pay this amount now, or null when it can. Permanent reasons come first. */
export function purchaseDeclineReason(card: PurchaseFacts['card'], amountCents: number, now: Date): PurchaseDeclineReason | null {
  if (card.status === 'cashed_out' || card.status === 'closed') return 'closed';
  if (card.status === 'expired' || !isCardValidAt(card, now)) return 'expired';
  if (card.frozen) return 'frozen';
  if (card.remainingAmountCents < amountCents) return 'insufficient_balance';
  return null;
}

export function planPurchase(facts: PurchaseFacts): PurchasePlan {
  const { card, amountCents, now } = facts;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError(`purchase amount must be positive cents, got ${amountCents}`);
  const decline = purchaseDeclineReason(card, amountCents, now);
  if (decline) return { ok: false, decline };
  const lines: JournalLine[] = [
    { account: { card: card.id }, amountCents: -amountCents },
    { account: { system: 'merchants' }, amountCents },
  ];
  assertJournalBalanced(lines);
  return {
    ok: true,
    debit: { cardId: card.id, amountCents, statusAtZero: card.type === 'single-use' ? 'closed' : null, allowedStatuses: ['active'], validAt: now },
    journal: { kind: 'purchase', memo: `purchase at ${facts.merchant}`, lines },
  };
}
