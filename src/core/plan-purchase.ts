// A demo purchase decided (docs/rules.md#screens, docs/rules.md#cards, docs/rules.md#card-controls):
// approved, with the debit and its journal, or declined with the reason the merchant is told. One
// decision checks, in order: closed, expired, frozen, the owner's spend controls (merchant lock,
// category, limits), then the balance. A single-use card closes when a purchase empties it.
import { assertJournalBalanced, isCardValidAt, type CardDebit, type CardFacts, type JournalLine } from './money-plan';
import { DEFAULT_CONTROLS, merchantLockAfterApproval, type MerchantLock, type SpendCategory, type SpendControls, type SpendDecline, type SpendHistory, type SpendWindow } from './spend-controls';
import { authorizeSpend } from './spend-controls-authorize';

export type CardStateDeclineReason = 'frozen' | 'expired' | 'closed';
export type PurchaseDeclineReason = 'insufficient_balance' | CardStateDeclineReason | SpendDecline['reason'];

/** What a controls decline was measured against, stored with the declined row to say it later. */
export type StoredDeclineDetail = { window: SpendWindow; leftCents: number } | { lockedTo: string } | { category: SpendCategory };

export type PurchaseFacts = {
  card: Pick<CardFacts, 'id' | 'status' | 'frozen' | 'validUntil' | 'remainingAmountCents'> & { type: string };
  amountCents: number;
  merchant: string;
  now: Date;
  /** The merchant category; 'other' when the purchase names none. */
  category?: SpendCategory;
  /** The card's spend controls as read under its lock; none set: DEFAULT_CONTROLS. */
  controls?: SpendControls;
  /** The card's approved purchases (SpendHistory); none: nothing spent. */
  history?: SpendHistory;
  /**
   * The instant the trailing windows end at, on the clock that dated the history's purchases (the
   * database's), so a window never slides with another clock's drift; `now` when not given.
   */
  historyNow?: Date;
};

export type PurchasePlan =
  | {
      ok: true;
      debit: CardDebit;
      journal: { kind: 'purchase'; memo: string; lines: JournalLine[] };
      /** The merchant lock to store with the debit ('first' becomes this merchant), or null when it stays. */
      lockAfter: MerchantLock | null;
    }
  | { ok: false; decline: PurchaseDeclineReason; message?: string; detail?: StoredDeclineDetail };

/** Why this card cannot be used now, whatever the amount, or null when it can. Permanent reasons come first. */
export function cardStateDeclineReason(card: PurchaseFacts['card'], now: Date): CardStateDeclineReason | null {
  if (card.status === 'cashed_out' || card.status === 'closed') return 'closed';
  if (card.status === 'expired' || !isCardValidAt(card, now)) return 'expired';
  if (card.frozen) return 'frozen';
  return null;
}

export function planPurchase(facts: PurchaseFacts): PurchasePlan {
  const { card, amountCents, merchant, now } = facts;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError(`purchase amount must be positive cents, got ${amountCents}`);
  const stateDecline = cardStateDeclineReason(card, now);
  if (stateDecline) return { ok: false, decline: stateDecline };
  // The controls before the balance: a purchase the owner ruled out is declined for that, whatever is on the card.
  const controls = facts.controls ?? DEFAULT_CONTROLS;
  const spend = authorizeSpend({
    controls,
    history: facts.history ?? { purchases: [], lifetimeSpentCents: 0 },
    purchase: { amountCents, merchant, category: facts.category ?? 'other' },
    now: facts.historyNow ?? now,
  });
  if (!spend.ok) return { ok: false, decline: spend.reason, message: spend.message, detail: declineDetail(spend) };
  if (card.remainingAmountCents < amountCents) return { ok: false, decline: 'insufficient_balance' };
  const lines: JournalLine[] = [
    { account: { card: card.id }, amountCents: -amountCents },
    { account: { system: 'merchants' }, amountCents },
  ];
  assertJournalBalanced(lines);
  const lock = merchantLockAfterApproval(controls.merchantLock, merchant);
  return {
    ok: true,
    debit: { cardId: card.id, amountCents, statusAtZero: card.type === 'single-use' ? 'closed' : null, allowedStatuses: ['active'], validAt: now },
    journal: { kind: 'purchase', memo: `purchase at ${merchant}`, lines },
    lockAfter: lock === controls.merchantLock ? null : lock,
  };
}

function declineDetail(decline: SpendDecline): StoredDeclineDetail {
  switch (decline.reason) {
    case 'spend_limit':
      return { window: decline.window, leftCents: decline.leftCents };
    case 'merchant_locked':
      return { lockedTo: decline.lockedTo };
    case 'category_blocked':
      return { category: decline.category };
  }
}
