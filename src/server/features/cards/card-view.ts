// Shapes a card row into the API's Card (src/contracts/cards.ts) and loads a user's own card.
// The number and CVV ciphertexts never leave this layer: only the reveal decrypts them.
import { and, eq } from 'drizzle-orm';
import { maskCardNumber } from '../../../core/cards';
import { CARD_MESSAGES, type Card } from '../../../contracts/cards';
import type { DbOrTx } from '../../db/client';
import { cards } from '../../db/schema';
import { notFound } from '../../lib/errors';

export type CardRow = typeof cards.$inferSelect;

/**
 * Loads a card only if it belongs to the user: another user's card id answers exactly like an
 * id that does not exist (404), so ids cannot be probed.
 */
export async function loadOwnedCard(db: DbOrTx, userId: string, cardId: string, options: { forUpdate?: boolean } = {}): Promise<CardRow> {
  const query = db.select().from(cards).where(and(eq(cards.id, cardId), eq(cards.userId, userId)));
  const [row] = options.forUpdate ? await query.for('no key update') : await query;
  if (!row) throw notFound(CARD_MESSAGES.notFound);
  return row;
}

/** A card still inside its validity period (the scheduled job may not have marked it yet). */
export function isWithinValidity(row: Pick<CardRow, 'validUntil'>, now: Date): boolean {
  return now.getTime() < row.validUntil.getTime();
}

/**
 * What the card may do now (docs/rules.md#card-expiry and docs/decisions on expired cards): an active card
 * inside its validity spends and funds combines; an expired card's balance can only be cashed
 * out; a frozen card does nothing until it is unfrozen.
 */
export function cardAbilities(row: CardRow, now: Date): Card['can'] {
  const hasBalance = row.remainingAmountCents > 0;
  const live = row.status === 'active' && isWithinValidity(row, now);
  return {
    spend: live && !row.frozen && hasBalance,
    cashOut: (row.status === 'active' || row.status === 'expired') && !row.frozen && hasBalance,
    useAsSource: live && !row.frozen && hasBalance,
    freeze: row.status === 'active' || row.status === 'expired',
  };
}

export function toCardView(row: CardRow, now: Date): Card {
  return {
    id: row.id,
    combineId: row.combineId,
    type: row.type as Card['type'],
    status: row.status as Card['status'],
    frozen: row.frozen,
    network: row.network as Card['network'],
    last4: row.last4,
    maskedNumber: maskCardNumber(row.last4),
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil.toISOString(),
    closedAt: row.closedAt ? row.closedAt.toISOString() : null,
    originalAmountCents: row.originalAmountCents,
    amountSpentCents: row.amountSpentCents,
    remainingAmountCents: row.remainingAmountCents,
    promoApplied: row.promoApplied,
    promoId: row.promoId,
    can: cardAbilities(row, now),
    simulated: row.simulated,
    testSource: row.testSource,
    environment: row.environment,
  };
}
