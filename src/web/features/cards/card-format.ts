// How /my-cards words a card: labels, dates and the reasons an action is not offered.
import { CASHOUT_MESSAGES } from '../../../core/cashout';
import type { Card, CardFilter, CardTransaction } from '../../../contracts/cards';
import { DECLINE_MESSAGES } from '../../../contracts/cards';

export const CARD_PAGE_MESSAGES = {
  loadFailed: 'Failed to load cards',
  frozen: 'This card is frozen. Unfreeze it to spend, cash out or use it as a source.',
  noBalanceToCashOut: CASHOUT_MESSAGES.noBalance,
  noBalanceForSource: CASHOUT_MESSAGES.noBalanceForSource,
  expired: 'This card has expired: it can no longer be spent or used as a source.',
  promoNote: '50% Off Platform Fees',
} as const;

export const CARD_FILTERS: ReadonlyArray<{ value: Exclude<CardFilter, 'closed'>; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'cashed_out', label: 'Cashed Out' },
  { value: 'expired', label: 'Expired' },
  { value: 'frozen', label: 'Frozen' },
];

export const NETWORK_LABELS: Record<Card['network'], string> = { visa: 'Visa', mastercard: 'Mastercard' };
export const TYPE_LABELS: Record<Card['type'], string> = { general: 'General', 'single-use': 'Single-use' };
export const STATUS_LABELS: Record<Card['status'], string> = { active: 'Active', cashed_out: 'Cashed Out', expired: 'Expired', closed: 'Closed' };

export const TRANSACTION_LABELS: Record<CardTransaction['type'], string> = {
  purchase: 'Purchase',
  cashout: 'Cash-out',
  funding: 'Card funded',
  transfer_in: 'Transfer in',
  transfer_out: 'Used as a source',
};

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

/** A decline's words: a spend-controls decline says what it was measured against (docs/rules.md#card-controls). */
export function declineText(transaction: Pick<CardTransaction, 'declineReason' | 'declineMessage'>): string | null {
  const reason = transaction.declineReason;
  return reason ? (transaction.declineMessage ?? DECLINE_MESSAGES[reason]) : null;
}

/** Why Cash Out is not offered on this card, or null when it is. */
export function cashOutBlocker(card: Card): string | null {
  if (card.can.cashOut) return null;
  if (card.frozen && card.remainingAmountCents > 0) return CARD_PAGE_MESSAGES.frozen;
  return CARD_PAGE_MESSAGES.noBalanceToCashOut;
}

/** Why Use as Source is not offered on this card, or null when it is. */
export function sourceBlocker(card: Card): string | null {
  if (card.can.useAsSource) return null;
  if (card.frozen && card.remainingAmountCents > 0) return CARD_PAGE_MESSAGES.frozen;
  if (card.remainingAmountCents <= 0) return CARD_PAGE_MESSAGES.noBalanceForSource;
  return CARD_PAGE_MESSAGES.expired;
}

export const cashOutHref = (card: Card) => `/cashout?cardId=${encodeURIComponent(card.id)}`;
export const sourceHref = (card: Card) => `/create-card?fromCard=${encodeURIComponent(card.id)}&amountCents=${card.remainingAmountCents}`;
