// POST /api/cards/:id/freeze and /unfreeze: instant, audited. A frozen card cannot be spent,
// cashed out or used as a source: `debitCard` refuses any debit of a frozen card, so every
// feature that takes money off a card obeys the flag without checking it itself.
import { eq } from 'drizzle-orm';
import { CARD_MESSAGES, type Card } from '../../../contracts/cards';
import type { Db } from '../../db/client';
import { cards } from '../../db/schema';
import { insertEvents, newEvent } from '../../events/events';
import { audit } from '../../lib/audit';
import { conflict } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { cardAbilities, loadOwnedCard, toCardView } from './card-view';

export async function setCardFrozen(
  deps: { db: Db; now(): Date },
  input: { userId: string; cardId: string; frozen: boolean; ip: string | null },
): Promise<Card> {
  return inTransaction(deps.db, async (tx) => {
    const now = deps.now();
    const row = await loadOwnedCard(tx, input.userId, input.cardId, { forUpdate: true });
    if (!cardAbilities(row, now).freeze) throw conflict(CARD_MESSAGES.notFreezable, 'card_closed');
    // Asking twice is harmless: the card is already as asked, and nothing new is audited.
    if (row.frozen === input.frozen) return toCardView(row, now);
    const [updated] = await tx.update(cards).set({ frozen: input.frozen }).where(eq(cards.id, row.id)).returning();
    if (!updated) throw new Error('card update returned nothing');
    await audit(tx, {
      userId: input.userId,
      event: input.frozen ? 'card_frozen' : 'card_unfrozen',
      ip: input.ip,
      details: { cardId: row.id, last4: row.last4 },
      at: now,
    });
    const view = toCardView(updated, now);
    await insertEvents(tx, [newEvent(input.userId, input.frozen ? 'card.frozen' : 'card.unfrozen', view, now)]);
    return view;
  });
}
