// GET /api/cards/:id/transactions: purchases (approved and declined), cash-outs, transfers and
// the funding of one card, newest first.
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CardTransaction } from '../../../contracts/cards';
import { transactions } from '../../db/schema';
import { loadOwnedCard } from './card-view';

export const MAX_TRANSACTIONS_LISTED = 200;

export type TransactionRow = typeof transactions.$inferSelect;

export function toTransactionView(row: TransactionRow): CardTransaction {
  return {
    id: row.id,
    cardId: row.cardId,
    type: row.type as CardTransaction['type'],
    status: row.status as CardTransaction['status'],
    amountCents: row.amountCents,
    feeCents: row.feeCents,
    netAmountCents: row.netAmountCents,
    merchant: row.merchant,
    payoutMethod: row.payoutMethod,
    declineReason: row.declineReason as CardTransaction['declineReason'],
    combineId: row.combineId,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listCardTransactions(app: FastifyInstance, userId: string, cardId: string): Promise<CardTransaction[]> {
  await loadOwnedCard(app.db, userId, cardId);
  const rows = await app.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.cardId, cardId), eq(transactions.userId, userId)))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(MAX_TRANSACTIONS_LISTED);
  return rows.map(toTransactionView);
}
