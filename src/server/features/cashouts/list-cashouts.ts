// GET /api/cashouts: the user's cash-outs, newest first (optionally of one card).
import { and, desc, eq } from 'drizzle-orm';
import type { Cashout } from '../../../contracts/cashouts';
import type { DbOrTx } from '../../db/client';
import { cards, transactions } from '../../db/schema';
import { toCashout } from './create-cashout';

export async function listCashouts(db: DbOrTx, userId: string, query: { cardId?: string | undefined; limit: number }): Promise<Cashout[]> {
  const conditions = [eq(transactions.userId, userId), eq(transactions.type, 'cashout')];
  if (query.cardId) conditions.push(eq(transactions.cardId, query.cardId));
  const rows = await db
    .select({ transaction: transactions, last4: cards.last4 })
    .from(transactions)
    .leftJoin(cards, eq(cards.id, transactions.cardId))
    .where(and(...conditions))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(query.limit);
  return rows.map((row) => toCashout(row.transaction, row.last4 ?? ''));
}
