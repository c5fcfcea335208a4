// Virtual cards API. Money in cents. No answer here carries a full card number or a
// CVV except `cardReveal`, the body of POST /api/cards/:id/reveal (docs/rules.md#card-reveal, docs/rules.md#never-logged).
import { z } from 'zod';
import { cents } from './common';
import { cardType } from './combines';
import { formatUsd, MAX_CARD_AMOUNT_CENTS } from '../core/money';
import type { StoredDeclineDetail } from '../core/plan-purchase';
import { SPEND_CATEGORY_IDS, type SpendCategory } from '../core/spend-controls';
import { categoryBlockedMessage, merchantLockedMessage, spendLimitMessage } from '../core/spend-controls-authorize';

export const cardStatus = z.enum(['active', 'cashed_out', 'expired', 'closed']);
export type CardStatus = z.infer<typeof cardStatus>;

/** The /my-cards filters; `frozen` is a flag across statuses, the others are statuses. */
export const cardFilter = z.enum(['all', 'active', 'cashed_out', 'expired', 'frozen', 'closed']);
export type CardFilter = z.infer<typeof cardFilter>;

export const listCardsQuery = z.object({ status: cardFilter.default('all') });

export const cardParams = z.object({ id: z.string().uuid('Card not found.') });

export const cardNetwork = z.enum(['visa', 'mastercard']);

export const card = z.object({
  id: z.string(),
  combineId: z.string().nullable(),
  type: cardType,
  status: cardStatus,
  frozen: z.boolean(),
  network: cardNetwork,
  last4: z.string(),
  /** '•••• •••• •••• 1234': the only form of the number outside the reveal. */
  maskedNumber: z.string(),
  issuedAt: z.string(),
  /** When the card stops being spendable: 12 months (general) or 30 days (single-use) after issue. */
  validUntil: z.string(),
  closedAt: z.string().nullable(),
  originalAmountCents: cents,
  amountSpentCents: cents,
  remainingAmountCents: cents,
  promoApplied: z.boolean(),
  promoId: z.string().nullable(),
  /** What the server will allow right now; the screen shows or explains the actions from these. */
  can: z.object({ spend: z.boolean(), cashOut: z.boolean(), useAsSource: z.boolean(), freeze: z.boolean() }),
  simulated: z.boolean(),
  testSource: z.string(),
  environment: z.string(),
});
export type Card = z.infer<typeof card>;

export const cardList = z.object({ cards: z.array(card) });
export type CardList = z.infer<typeof cardList>;

/** The only response that carries the full number and CVV. */
export const cardReveal = z.object({
  cardId: z.string(),
  number: z.string(),
  /** Two digits each, as printed: MM and YY. */
  expiryMonth: z.string(),
  expiryYear: z.string(),
  cvv: z.string(),
  network: cardNetwork,
});
export type CardReveal = z.infer<typeof cardReveal>;

export const CARD_MESSAGES = {
  notFound: 'Card not found.',
  notFreezable: 'This card is closed, so there is nothing to freeze.',
  frozen: 'This card is frozen. Unfreeze it to spend, cash out or use it as a source.',
  merchantRequired: 'Please enter a merchant name',
  invalidAmount: 'Please enter a valid amount',
  // No card holds more than the largest card amount, so no purchase can be larger.
  maxPurchase: `A purchase can be at most ${formatUsd(MAX_CARD_AMOUNT_CENTS)}: no card holds more.`,
} as const;

// ---- Demo purchases -----------------------------------------------------------------------
/** The merchant category groups of docs/rules.md#card-controls. */
export const spendCategory = z.enum(SPEND_CATEGORY_IDS as [SpendCategory, ...SpendCategory[]]);

export const purchaseRequest = z.object({
  merchant: z.string({ error: CARD_MESSAGES.merchantRequired }).trim().min(1, CARD_MESSAGES.merchantRequired).max(80, 'Merchant names can be at most 80 characters.'),
  amountCents: z
    .number({ error: CARD_MESSAGES.invalidAmount })
    .int('Amounts can have at most 2 decimal places.')
    .positive(CARD_MESSAGES.invalidAmount)
    .max(MAX_CARD_AMOUNT_CENTS, CARD_MESSAGES.maxPurchase),
  /** The merchant's category; a purchase naming none is decided as 'other'. */
  category: spendCategory.optional(),
});
export type PurchaseRequest = z.infer<typeof purchaseRequest>;

export const declineReason = z.enum(['insufficient_balance', 'frozen', 'expired', 'closed', 'spend_limit', 'merchant_locked', 'category_blocked']);
export type DeclineReason = z.infer<typeof declineReason>;

export const transactionType = z.enum(['cashout', 'purchase', 'funding', 'transfer_in', 'transfer_out']);
export const transactionStatus = z.enum(['success', 'declined', 'pending']);

export const cardTransaction = z.object({
  id: z.string(),
  cardId: z.string(),
  type: transactionType,
  status: transactionStatus,
  amountCents: cents,
  feeCents: cents,
  netAmountCents: cents,
  merchant: z.string().nullable(),
  payoutMethod: z.string().nullable(),
  declineReason: declineReason.nullable(),
  /**
   * A spend-controls decline in words, with what it was measured against (present on those only;
   * every other reason's words are DECLINE_MESSAGES[declineReason]).
   */
  declineMessage: z.string().optional(),
  /** The merchant category a purchase named (absent when it named none: decided as 'other'). */
  category: spendCategory.optional(),
  combineId: z.string().nullable(),
  createdAt: z.string(),
});
export type CardTransaction = z.infer<typeof cardTransaction>;

/**
 * What `amountSpentCents` is made of (docs/rules.md#card-figures): every debit counts as spent, so
 * purchases + cash-outs + use as a source = spent, and original = spent + remaining.
 */
export const cardSpending = z.object({ purchasesCents: cents, cashoutsCents: cents, sourceUseCents: cents });
export type CardSpending = z.infer<typeof cardSpending>;

export const cardTransactionList = z.object({ transactions: z.array(cardTransaction), spending: cardSpending });
export type CardTransactionList = z.infer<typeof cardTransactionList>;

/** 201: the purchase went through. A decline answers 402 `declined` with `details: purchaseDeclined`. */
export const purchaseResponse = z.object({ transaction: cardTransaction, card });
export type PurchaseResponse = z.infer<typeof purchaseResponse>;

/** A spend-controls decline also says what it was measured against: the window and what it left, the lock's merchant, or the category. */
export const purchaseDeclined = z.object({
  reason: declineReason,
  transactionId: z.string(),
  window: z.enum(['transaction', 'day', '30_days', 'year', 'lifetime']).optional(),
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
