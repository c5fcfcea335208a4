// GET /api/cards/:id/transactions: purchases (approved and declined), cash-outs, transfers and
// the funding of one card, newest first, and what its spending is made of.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { declineMessage, type CardTransaction, type CardTransactionList } from '../../../contracts/cards';
import type { SpendCategory } from '../../../core/spend-controls';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { loadOwnedCard } from './card-view';

export const MAX_TRANSACTIONS_LISTED = 200;

export type TransactionRow = typeof transactions.$inferSelect;

export function toTransactionView(row: TransactionRow): CardTransaction {
  const reason = row.declineReason as CardTransaction['declineReason'];
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
    declineReason: reason,
    // Only where there is more to say than the reason (a controls decline's detail) or a category
    // was named: every other movement answers as it did before the controls existed.
    ...(reason && row.declineDetail ? { declineMessage: declineMessage(reason, row.declineDetail) } : {}),
    ...(row.category ? { category: row.category as SpendCategory } : {}),
    combineId: row.combineId,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listCardTransactions(db: Db, userId: string, cardId: string): Promise<CardTransactionList> {
  await loadOwnedCard(db, userId, cardId);
  const mine = and(eq(transactions.cardId, cardId), eq(transactions.userId, userId));
  const [rows, spent] = await Promise.all([
    db.select().from(transactions).where(mine).orderBy(desc(transactions.createdAt), desc(transactions.id)).limit(MAX_TRANSACTIONS_LISTED),
    // The breakdown of amount_spent (docs/rules.md#card-figures), over every movement, not only the listed ones.
    db
      .select({ type: transactions.type, totalCents: sql<string>`sum(${transactions.amountCents})::text` })
      .from(transactions)
      .where(and(mine, eq(transactions.status, 'success'), inArray(transactions.type, ['purchase', 'cashout', 'transfer_out'])))
      .groupBy(transactions.type),
  ]);
  const total = (type: string) => Number(spent.find((row) => row.type === type)?.totalCents ?? 0);
  return {
    transactions: rows.map(toTransactionView),
    spending: { purchasesCents: total('purchase'), cashoutsCents: total('cashout'), sourceUseCents: total('transfer_out') },
  };
}
