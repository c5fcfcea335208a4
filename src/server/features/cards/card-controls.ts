// GET and PUT /api/cards/:id/controls (docs/rules.md#card-controls, decision 190): the owner's own
// spend controls of a card and what they leave now. Changing them moves no money and rewrites no
// purchase: they decide only purchases still to come. A frozen, expired or closed card's controls
// can still be edited (they decide nothing while it cannot pay, and are ready when it can again).
import { sql } from 'drizzle-orm';
import type { CardControlsRequest, CardControlsResponse } from '../../../contracts/card-controls';
import type { SpendCategory, SpendControls, SpendHistory } from '../../../core/spend-controls';
import { spendControlsInput, validateSpendControls } from '../../../core/spend-controls-validation';
import { availableSpend, availableSpendText } from '../../../core/spend-windows';
import type { Db } from '../../db/client';
import { cardSpendControls } from '../../db/schema';
import { insertEvents, newEvent } from '../../events/events';
import { audit } from '../../lib/audit';
import { badRequest } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { loadOwnedCard } from './card-view';
import { readSpendFacts } from './spend-facts';

export async function getCardControls(db: Db, userId: string, cardId: string): Promise<CardControlsResponse> {
  await loadOwnedCard(db, userId, cardId);
  const facts = await readSpendFacts(db, cardId, null);
  return controlsAnswer(cardId, facts.controls, facts.history, facts.databaseNow);
}

export async function setCardControls(
  deps: { db: Db; now(): Date },
  input: { userId: string; cardId: string; request: CardControlsRequest; ip: string | null },
): Promise<CardControlsResponse> {
  const { userId, cardId } = input;
  // Someone else's card is not found, whatever the body: ids cannot be probed with bad input.
  await loadOwnedCard(deps.db, userId, cardId);
  const checked = validateSpendControls(input.request);
  if (!checked.ok) {
    const [first] = checked.errors;
    throw badRequest(first!.message, checked.errors.map(({ field, message }) => ({ path: `/${field}`, message })));
  }
  const { controls } = checked;
  return inTransaction(deps.db, async (tx) => {
    // Under the card's lock, as a purchase reads them (spend-facts.ts): a purchase is decided on
    // the controls before this change or after it, never on half of it.
    const card = await loadOwnedCard(tx, userId, cardId, { forUpdate: true });
    await tx
      .insert(cardSpendControls)
      .values({ cardId, controls })
      .onConflictDoUpdate({ target: cardSpendControls.cardId, set: { controls, updatedAt: sql`now()` } });
    const now = deps.now();
    await audit(tx, { userId, event: 'card_controls_changed', ip: input.ip, details: { cardId, last4: card.last4 }, at: now });
    const facts = await readSpendFacts(tx, cardId, null);
    const answer = controlsAnswer(cardId, facts.controls, facts.history, facts.databaseNow);
    await insertEvents(tx, [newEvent(userId, 'card.controls.updated', answer, now)]);
    return answer;
  });
}

function controlsAnswer(cardId: string, controls: SpendControls, history: SpendHistory, now: Date): CardControlsResponse {
  const { merchantLock, blockCategories, allowOnlyCategories, ...limits } = spendControlsInput(controls);
  const available = availableSpend(controls, history, now);
  return {
    cardId,
    controls: {
      perTransactionCents: limits.perTransactionCents ?? null,
      perDayCents: limits.perDayCents ?? null,
      per30DaysCents: limits.per30DaysCents ?? null,
      perYearCents: limits.perYearCents ?? null,
      lifetimeCents: limits.lifetimeCents ?? null,
      merchantLock: merchantLock ?? { mode: 'off' },
      blockCategories: (blockCategories ?? []) as SpendCategory[],
      allowOnlyCategories: (allowOnlyCategories ?? []) as SpendCategory[],
    },
    available,
    availableText: availableSpendText(available),
  };
}
