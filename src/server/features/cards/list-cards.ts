// GET /api/cards and GET /api/cards/:id: the user's cards, newest first (spec §7: ordered by
// issued_at descending), filtered as /my-cards asks.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Card, CardFilter } from '../../../contracts/cards';
import type { Db } from '../../db/client';
import { cards } from '../../db/schema';
import { loadOwnedCard, toCardView } from './card-view';

/** A bound on one answer; a user creating a card a day would take more than a year to reach it. */
export const MAX_CARDS_LISTED = 500;

function filterCondition(filter: CardFilter): SQL | undefined {
  switch (filter) {
    case 'all':
      return undefined;
    case 'frozen':
      return eq(cards.frozen, true);
    // A frozen active card is listed under Frozen, not Active: Active means "ready to use".
    case 'active':
      return and(eq(cards.status, 'active'), eq(cards.frozen, false));
    default:
      return eq(cards.status, filter);
  }
}

// /my-cards is read far more often than cards change: one prepared statement per filter and
// database handle (built once, parsed and planned once per pooled connection).
const preparedByDb = new WeakMap<Db, Map<CardFilter, ReturnType<typeof prepareList>>>();

function prepareList(db: Db, filter: CardFilter) {
  return db
    .select()
    .from(cards)
    .where(and(eq(cards.userId, sql.placeholder('userId')), filterCondition(filter)))
    .orderBy(desc(cards.issuedAt), desc(cards.id))
    .limit(MAX_CARDS_LISTED)
    .prepare(`list_cards_${filter}`);
}

export async function listCards(app: FastifyInstance, userId: string, filter: CardFilter): Promise<Card[]> {
  let prepared = preparedByDb.get(app.db);
  if (!prepared) preparedByDb.set(app.db, (prepared = new Map()));
  let query = prepared.get(filter);
  if (!query) prepared.set(filter, (query = prepareList(app.db, filter)));
  const list = query;
  // Served from the read cache when it has the list (decision 017): a user's requests that change
  // cards forget it (plugins/read-cache.ts), and so does the expiry job.
  const rows = await app.database.readCache.cards(userId, filter, () => list.execute({ userId }));
  const now = app.now();
  return rows.map((row) => toCardView(row, now));
}

export async function getCard(app: FastifyInstance, userId: string, cardId: string): Promise<Card> {
  return toCardView(await loadOwnedCard(app.db, userId, cardId), app.now());
}
