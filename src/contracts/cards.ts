// Virtual cards API. Money in cents. No answer here carries a full card number or a
// CVV except `cardReveal`, the body of POST /api/cards/:id/reveal (docs/rules.md#card-reveal, docs/rules.md#never-logged).
import { z } from 'zod';
import { cents } from './common';
import { cardType } from './combines';
import { formatUsd, MAX_CARD_AMOUNT_CENTS } from '../core/money';
import { spendCategory } from './card-controls';
import { declineReason } from './card-declines';

// The declines' reasons and words, and the categories, live in their own modules; re-exported here
// for every screen and route that knows them as the cards API's.
export { DECLINE_MESSAGES, declineMessage, declineReason, purchaseDeclined, type DeclineReason } from './card-declines';
export { spendCategory } from './card-controls';

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
