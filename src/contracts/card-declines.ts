// Why a demo purchase was declined (docs/rules.md#purchases, docs/rules.md#card-controls), as the
// API names it and as a person reads it, on the 402 answer and in the card's transaction list.
import { z } from 'zod';
import type { StoredDeclineDetail } from '../core/plan-purchase';
import { SPEND_WINDOWS, type SpendWindow } from '../core/spend-controls';
import { categoryBlockedMessage, merchantLockedMessage, spendLimitMessage } from '../core/spend-controls-authorize';
import { spendCategory } from './card-controls';
import { cents } from './common';

export const declineReason = z.enum(['insufficient_balance', 'frozen', 'expired', 'closed', 'spend_limit', 'merchant_locked', 'category_blocked']);
export type DeclineReason = z.infer<typeof declineReason>;

/** A spend-controls decline also says what it was measured against: the window and what it left, the lock's merchant, or the category. */
export const purchaseDeclined = z.object({
  reason: declineReason,
  transactionId: z.string(),
  window: z.enum(SPEND_WINDOWS as [SpendWindow, ...SpendWindow[]]).optional(),
  leftCents: cents.optional(),
  lockedTo: z.string().optional(),
  category: spendCategory.optional(),
});

/**
 * What a declined purchase says, on the API and in the card's transaction list. A controls decline
 * says more when its detail is known (declineMessage); these words are for when it is not.
 */
export const DECLINE_MESSAGES: Readonly<Record<DeclineReason, string>> = {
  insufficient_balance: 'Declined: the card does not have enough balance for this purchase.',
  frozen: 'Declined: this card is frozen. Unfreeze it to use it.',
  expired: 'Declined: this card has expired.',
  closed: 'Declined: this card is no longer active.',
  spend_limit: "Declined: this purchase is over the card's spending limit.",
  merchant_locked: 'Declined: this card is locked to another merchant.',
  category_blocked: 'Declined: this card does not allow purchases of this kind.',
};

/** A decline in words, with what it was measured against when it was stored (docs/rules.md#card-controls). */
export function declineMessage(reason: DeclineReason, detail: StoredDeclineDetail | null | undefined): string {
  if (reason === 'spend_limit' && detail && 'window' in detail) return spendLimitMessage(detail.window, detail.leftCents);
  if (reason === 'merchant_locked' && detail && 'lockedTo' in detail) return merchantLockedMessage(detail.lockedTo);
  if (reason === 'category_blocked' && detail && 'category' in detail) return categoryBlockedMessage(detail.category);
  return DECLINE_MESSAGES[reason];
}
