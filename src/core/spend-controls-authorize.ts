// Whether the owner's controls let one new purchase through (spend-controls.ts). Pure: the server
// loads the facts (SpendHistory) under the card's lock and stores what follows from an approval
// (the purchase itself, and merchantLockAfterApproval's lock).
import { formatUsd } from './money';
import {
  isSpendCategory,
  LIMIT_FIELD,
  merchantKey,
  SPEND_WINDOWS,
  spendCategoryLabel,
  type SpendCategory,
  type SpendControls,
  type SpendDecision,
  type SpendDecline,
  type SpendHistory,
  type SpendPurchase,
  type SpendWindow,
} from './spend-controls';
import { availableSpend } from './spend-windows';

export type SpendFacts = { controls: SpendControls; history: SpendHistory; purchase: SpendPurchase; now: Date };

/**
 * Checks, in this order: the merchant lock, the categories, then the limits. The first two are
 * about where the card may be used, which no amount or waiting changes, so they are the answer a
 * merchant the card was never meant for gets (and it learns nothing of how much is left); a
 * limit is the one refusal a smaller amount or a later day can turn into an approval.
 */
export function authorizeSpend(facts: SpendFacts): SpendDecision {
  const { controls, history, purchase, now } = facts;
  const { amountCents, merchant, category } = purchase;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError(`purchase amount must be positive cents, got ${amountCents}`);
  if (!isSpendCategory(category)) throw new TypeError(`unknown spend category ${String(category)}`);

  const lock = controls.merchantLock;
  if (lock.mode === 'named' && merchantKey(lock.merchant) !== merchantKey(merchant)) {
    return { ok: false, reason: 'merchant_locked', lockedTo: lock.merchant, message: merchantLockedMessage(lock.merchant) };
  }

  const rule = controls.categories;
  if ((rule.mode === 'block' && rule.list.includes(category)) || (rule.mode === 'allow_only' && !rule.list.includes(category))) {
    return { ok: false, reason: 'category_blocked', category, message: categoryBlockedMessage(category) };
  }

  const limitDecline = spendLimitDecline(controls, history, amountCents, now);
  return limitDecline ?? { ok: true };
}

/**
 * The window a too-large purchase is declined for: the one that leaves the least. On a tie the
 * longer window is named, because it is the one still in the way once the shorter one refills.
 */
function spendLimitDecline(controls: SpendControls, history: SpendHistory, amountCents: number, now: Date): SpendDecline | null {
  const available = availableSpend(controls, history, now);
  let worst: { window: SpendWindow; leftCents: number } | null = null;
  for (const window of SPEND_WINDOWS) {
    const leftCents = available[LIMIT_FIELD[window]];
    if (leftCents === null || amountCents <= leftCents) continue;
    if (worst === null || leftCents <= worst.leftCents) worst = { window, leftCents };
  }
  if (worst === null) return null;
  return { ok: false, reason: 'spend_limit', ...worst, message: spendLimitMessage(worst.window, worst.leftCents) };
}

export function merchantLockedMessage(lockedTo: string): string {
  return `Declined: this card is locked to ${lockedTo}.`;
}

export function categoryBlockedMessage(category: SpendCategory): string {
  return `Declined: this card does not allow ${spendCategoryLabel(category)} purchases.`;
}

export function spendLimitMessage(window: SpendWindow, leftCents: number): string {
  const left = formatUsd(leftCents);
  switch (window) {
    case 'transaction':
      return `Declined: this card allows at most ${left} a purchase.`;
    case 'day':
      return `Declined: this card's daily limit leaves ${left} today.`;
    case '30_days':
      return `Declined: this card's 30-day limit leaves ${left}.`;
    case 'year':
      return `Declined: this card's yearly limit leaves ${left}.`;
    case 'lifetime':
      return `Declined: this card's lifetime limit leaves ${left}.`;
  }
}
