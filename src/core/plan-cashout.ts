// The cash-out decided (docs/rules.md#cashout-fee, docs/rules.md#payout-methods-by-plan, docs/rules.md#outside-effects): which payout method may be used, whether the card
// can pay, the fee, the balanced journal, the record the user sees and the payout to send once it
// commits, with where it goes: only to a destination the payout provider registered (decision
// 172). The server carries the plan out (features/cashouts).
import { CASHOUT_MESSAGES, cashoutMethodChoices, exceedsBalanceMessage, payoutNotAllowedMessage } from './cashout';
import { CASHOUT_MIN_AMOUNT_CENTS, cashoutFee, type CashoutFee } from './fees';
import { refuse, assertJournalBalanced, type CardDebit, type CardFacts, type JournalLine, type Refusal } from './money-plan';
import { isPayoutMethod, isPayoutMethodAllowed, PAYOUT_METHOD_LABELS, type PayoutMethod, type PlanId } from './plans';
import { isPromoActive } from './promo';

export const CARD_NOT_FOUND_MESSAGE = 'Card not found.';
export const CARD_FROZEN_MESSAGE = 'This card is frozen. Unfreeze it to cash out.';
export const CARD_NOT_CASHABLE_MESSAGE = 'This card can no longer be cashed out.';

/**
 * Statuses a card may be cashed out in. An expired card can no longer be spent, but the money on
 * it is still the user's: cashing it out is how they get it back (decision 007).
 */
export const CASHOUT_CARD_STATUSES = ['active', 'expired'] as const;

export function methodNotSavedMessage(method: PayoutMethod): string {
  return `${PAYOUT_METHOD_LABELS[method]} is not one of your payout methods. Add it in Account Settings → Payout Methods first.`;
}

/**
 * Decision 172: a payout goes only to a destination the payout provider knows. A method saved
 * without one (before decision 168, or by an API client without details) or never saved has none;
 * the cash-out is refused before any money moves, and the user enters the details once.
 */
export function methodNeedsDetailsMessage(method: PayoutMethod, saved: boolean): string {
  const label = PAYOUT_METHOD_LABELS[method];
  return saved
    ? `We need your ${label} details again before we can pay to it. Enter them in Account Settings → Payout Methods, or on the cash-out form, then try again. Nothing was cashed out.`
    : `Add ${label} with its details first, in Account Settings → Payout Methods or on the cash-out form, then try again. Nothing was cashed out.`;
}

/**
 * The user's saved, active payout methods, each with the payout provider's reference for where its
 * money goes (decision 168), or null when none was registered. Keys other than a payout method are
 * ignored.
 */
export type SavedDestinations = Readonly<Partial<Record<PayoutMethod, string | null>>>;

export type CashoutRequest = { cardId: string; amountCents: number; payoutMethod: PayoutMethod };

export type CashoutFacts = {
  request: CashoutRequest;
  plan: PlanId;
  promoEnd: Date | null;
  /** The user's saved, active payout methods, with their destinations. */
  savedMethods: SavedDestinations;
  /** The user's card as read under its lock; null when the user has no such card. */
  card: (Pick<CardFacts, 'status' | 'frozen' | 'remainingAmountCents'> & { amountSpentCents: number; last4: string }) | null;
  now: Date;
};

export type CashoutPlan = {
  ok: true;
  fee: CashoutFee;
  debit: CardDebit;
  journal: { kind: 'cashout'; memo: string; lines: JournalLine[] };
  /** The transaction row the user sees (the server adds ids, flags and the time). */
  record: { type: 'cashout'; amountCents: number; feeCents: number; netAmountCents: number; payoutMethod: PayoutMethod };
  /** Sent after the commit, from the outbox: the net amount, to the chosen method's registered destination. */
  effects: [{ kind: 'payout'; method: PayoutMethod; amountCents: number; destination: string }];
  /** The method is one of the saved ones, whose last use the server records. */
  marksMethodUsed: boolean;
  /** The card as the debit leaves it: what the answer shows, and what the write must find. */
  cardAfter: { status: string; remainingAmountCents: number; amountSpentCents: number; last4: string };
};

/** The saved methods of `saved`, in its order. */
export function savedMethodsOf(saved: SavedDestinations): PayoutMethod[] {
  return Object.keys(saved).filter(isPayoutMethod);
}

/** The registered destination of `method`, or null when it has none (never saved, or saved without one). */
export function destinationOf(saved: SavedDestinations, method: PayoutMethod): string | null {
  return Object.hasOwn(saved, method) ? (saved[method] ?? null) : null;
}

/**
 * Where a cash-out to `method` is paid, or why it cannot be: docs/rules.md#payout-methods-by-plan, the plan's methods and
 * among them the user's saved ones when there are any; then decision 172, only to a destination
 * the payout provider registered (a method never saved, or saved without details, has none).
 */
export function payoutDestinationFor(plan: PlanId, saved: SavedDestinations, method: PayoutMethod): { ok: true; destination: string } | Refusal {
  if (!isPayoutMethodAllowed(plan, method)) return refuse(403, 'payout_method_not_allowed', payoutNotAllowedMessage(plan, method));
  const savedMethods = savedMethodsOf(saved);
  if (!cashoutMethodChoices(plan, savedMethods).includes(method)) return refuse(403, 'payout_method_not_saved', methodNotSavedMessage(method));
  const destination = destinationOf(saved, method);
  if (!destination) return refuse(409, 'payout_method_needs_details', methodNeedsDetailsMessage(method, savedMethods.includes(method)));
  return { ok: true, destination };
}

/** Why the card cannot pay `amountCents` out, or null when it can. */
export function cashoutCardRefusal(card: Pick<CardFacts, 'status' | 'frozen' | 'remainingAmountCents'> | undefined, amountCents: number): Refusal | null {
  if (!card) return refuse(404, 'not_found', CARD_NOT_FOUND_MESSAGE);
  if (card.remainingAmountCents <= 0) return refuse(409, 'no_balance', CASHOUT_MESSAGES.noBalance);
  if (card.frozen) return refuse(409, 'card_frozen', CARD_FROZEN_MESSAGE);
  if (!(CASHOUT_CARD_STATUSES as readonly string[]).includes(card.status)) return refuse(409, 'card_not_cashable', CARD_NOT_CASHABLE_MESSAGE);
  if (card.remainingAmountCents < amountCents) return refuse(400, 'validation_error', exceedsBalanceMessage(card.remainingAmountCents));
  return null;
}

export function planCashout(facts: CashoutFacts): CashoutPlan | Refusal {
  const { request } = facts;
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) return refuse(400, 'validation_error', CASHOUT_MESSAGES.invalidAmount);
  if (request.amountCents < CASHOUT_MIN_AMOUNT_CENTS) return refuse(400, 'validation_error', CASHOUT_MESSAGES.belowMinimum);
  const payTo = payoutDestinationFor(facts.plan, facts.savedMethods, request.payoutMethod);
  if (!payTo.ok) return payTo;
  const { card } = facts;
  const cardRefusal = cashoutCardRefusal(card ?? undefined, request.amountCents);
  if (cardRefusal || !card) return cardRefusal ?? refuse(404, 'not_found', CARD_NOT_FOUND_MESSAGE);

  const fee = cashoutFee({ amountCents: request.amountCents, plan: facts.plan, promoActive: isPromoActive({ promoEnd: facts.promoEnd, now: facts.now }) });
  const lines: JournalLine[] = [
    { account: { card: request.cardId }, amountCents: -request.amountCents },
    { account: { system: 'payouts' }, amountCents: fee.netCents },
    { account: { system: 'cashoutFeeRevenue' }, amountCents: fee.feeCents },
  ];
  assertJournalBalanced(lines);
  const remainingAmountCents = card.remainingAmountCents - request.amountCents;
  return {
    ok: true,
    fee,
    debit: { cardId: request.cardId, amountCents: request.amountCents, statusAtZero: 'cashed_out', allowedStatuses: CASHOUT_CARD_STATUSES, validAt: null },
    cardAfter: {
      status: remainingAmountCents === 0 ? 'cashed_out' : card.status,
      remainingAmountCents,
      amountSpentCents: card.amountSpentCents + request.amountCents,
      last4: card.last4,
    },
    journal: { kind: 'cashout', memo: `cashout to ${request.payoutMethod}`, lines },
    record: { type: 'cashout', amountCents: request.amountCents, feeCents: fee.feeCents, netAmountCents: fee.netCents, payoutMethod: request.payoutMethod },
    effects: [{ kind: 'payout', method: request.payoutMethod, amountCents: fee.netCents, destination: payTo.destination }],
    marksMethodUsed: savedMethodsOf(facts.savedMethods).includes(request.payoutMethod),
  };
}
