// What the card processor must hold for a virtual card we issued (decision 170). Our own rules
// decide every authorisation, but a real issuer keeps the card open at its end and approves in
// stand-in when our answer is late: it must be told when a card stops (or starts again) being
// usable. The state it should have is a function of the card's row alone, so the server can
// reconcile (compare with what the processor last confirmed, and tell it the difference) instead
// of sending an event from every statement that changes a card.
//
// The same rule is written in SQL for the reconciler's partial index and claim
// (server/effects/card-states.ts, migration 0018); a test holds the two to the same table.

export const PROCESSOR_CARD_STATES = ['active', 'frozen', 'closed'] as const;
/** `active`: authorise as usual; `frozen`: decline until told otherwise; `closed`: decline for good. */
export type ProcessorCardState = (typeof PROCESSOR_CARD_STATES)[number];

/**
 * The state the processor should hold for a card. Permanent reasons come first, as for a purchase
 * (core/plan-purchase.ts): any status but `active` (cashed out, expired, closed) is `closed`, even
 * when the card is also frozen (an expired card may be frozen to protect its balance, which a
 * cash-out, not the card network, pays out). A card's status never returns to `active`, so a card
 * the processor has closed is never asked to open again: `closed` is final at most issuers.
 * Validity is not read here: until the expiry job marks a card (every 5 minutes), the processor
 * also knows the printed expiry it was issued with.
 */
export function processorStateOf(card: { status: string; frozen: boolean }): ProcessorCardState {
  if (card.status !== 'active') return 'closed';
  return card.frozen ? 'frozen' : 'active';
}
