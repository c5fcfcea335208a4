// POST /api/cards/:id/purchases (demo mode): a merchant authorises and captures an amount on a
// virtual card. Approved: the card's balance goes down through the ledger (card → merchants) in
// the same transaction as the purchase row. Declined: a declined purchase row says why, and no
// money moves. Single-use cards close when a purchase empties them (docs/rules.md#cards).
import type { FastifyInstance } from 'fastify';
import { DECLINE_MESSAGES, type DeclineReason, type PurchaseRequest, type PurchaseResponse } from '../../../contracts/cards';
import type { ErrorResponse } from '../../../contracts/errors';
import type { Tx } from '../../db/client';
import { transactions } from '../../db/schema';
import { postingsOf } from '../../ledger/accounts';
import { planPurchase, purchaseDeclineReason } from '../../../core/plan-purchase';
import { debitCard } from '../../ledger/card-accounts';
import { postJournal } from '../../ledger/post-journal';
import { liveModeNotImplemented } from '../../lib/errors';
import { requestFingerprint, withIdempotency, type StoredResponse } from '../../lib/idempotency';
import { loadOwnedCard, toCardView, type CardRow } from './card-view';
import { toTransactionView } from './list-card-transactions';

/** Why this card cannot pay this amount now, or null when it can (core/plan-purchase.ts). */
export function declineReasonFor(row: CardRow, amountCents: number, now: Date): DeclineReason | null {
  return purchaseDeclineReason(row, amountCents, now);
}

export async function simulatePurchase(
  app: FastifyInstance,
  input: { userId: string; cardId: string; request: PurchaseRequest; idempotencyKey: string },
): Promise<StoredResponse & { replayed: boolean }> {
  if (!app.config.demoMode) throw liveModeNotImplemented();
  // A 404 for someone else's card before anything else, including the idempotency claim.
  const submitted = await loadOwnedCard(app.db, input.userId, input.cardId);
  // docs/rules.md#demo-declines: a demo payment takes 1 to 2 seconds; the wait holds no locks.
  await app.adapters.delay('payment');
  const fingerprint = requestFingerprint({ method: 'POST', route: `/api/cards/${input.cardId}/purchases`, body: input.request });
  const result = await withIdempotency(app.db, { userId: input.userId, key: input.idempotencyKey, fingerprint, now: app.now() }, (tx) =>
    purchaseInTransaction(app, tx, input.userId, input.cardId, input.request, { frozenWhenSubmitted: submitted.frozen }),
  );
  return { status: result.status, body: result.body, replayed: result.replayed };
}

async function purchaseInTransaction(
  app: FastifyInstance,
  tx: Tx,
  userId: string,
  cardId: string,
  request: PurchaseRequest,
  submission: { frozenWhenSubmitted: boolean },
): Promise<StoredResponse> {
  const now = app.now();
  const { amountCents, merchant } = request;
  const current = await loadOwnedCard(tx, userId, cardId);
  // A freeze stops what was asked while it held (docs/rules.md#card-freeze: a frozen card cannot pay), even
  // when the card is unfrozen during the payment's wait; a freeze during the wait stops it too.
  const card = { ...current, frozen: current.frozen || submission.frozenWhenSubmitted };
  const flags = { simulated: card.simulated, testSource: card.testSource, environment: card.environment };

  // The core decides (core/plan-purchase.ts); the conditional update then decides under
  // concurrency: two purchases can never both take the last dollar. When it refuses, the card
  // changed since it was read; read it again to say why.
  const plan = planPurchase({ card, amountCents, merchant, now });
  let reason: DeclineReason;
  if (!plan.ok) reason = plan.decline;
  else {
    const change = await debitCard(tx, { ...plan.debit, userId });
    if (change) {
      const journalId = await postJournal(tx, { kind: plan.journal.kind, userId, referenceId: cardId, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines) });
      const [row] = await tx
        .insert(transactions)
        .values({ userId, cardId, type: 'purchase', status: 'success', amountCents, feeCents: 0, netAmountCents: amountCents, merchant, journalId, ...flags })
        .returning();
      if (!row) throw new Error('transaction insert returned nothing');
      const after = await loadOwnedCard(tx, userId, cardId);
      // TIGER_STYLE: assert what must hold after the write, not only before it.
      if (after.remainingAmountCents !== change.remainingAmountCents || after.remainingAmountCents < 0) {
        throw new Error(`card ${cardId} balance out of step after purchase`);
      }
      const body: PurchaseResponse = { transaction: toTransactionView(row), card: toCardView(after, now) };
      return { status: 201, body };
    }
    reason = declineReasonFor(await loadOwnedCard(tx, userId, cardId), amountCents, now) ?? 'insufficient_balance';
  }

  const [declined] = await tx
    .insert(transactions)
    .values({ userId, cardId, type: 'purchase', status: 'declined', amountCents, feeCents: 0, netAmountCents: amountCents, merchant, declineReason: reason, ...flags })
    .returning({ id: transactions.id });
  if (!declined) throw new Error('transaction insert returned nothing');
  // Returned, not thrown: the declined purchase is recorded, and a retry with the same key
  // answers the same decline instead of trying again.
  const body: ErrorResponse = { error: { code: 'declined', message: DECLINE_MESSAGES[reason], details: { reason, transactionId: declined.id } } };
  return { status: 402, body };
}
