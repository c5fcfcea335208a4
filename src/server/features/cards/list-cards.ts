// GET /api/cards and GET /api/cards/:id: the user's cards, newest first (docs/rules.md#screens: ordered by
// issued_at descending), filtered as /my-cards asks.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Card, CardFilter } from '../../../contracts/cards';
import type { Database, Db } from '../../db/client';
import { cards } from '../../db/schema';
import { loadOwnedCard, toCardView, type CardRow } from './card-view';

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

/** The card list as sent, with the span of time in which it stays right (see listCardsJson). */
type SentList = { json: string; builtAtMs: number; freshUntilMs: number };

// Keyed by the rows the read cache holds: an entry lives exactly as long as those cached rows, so
// every change that makes the read cache forget a user's cards forgets their sent list too.
const sentLists = new WeakMap<readonly CardRow[], SentList>();

/** The handle, and the read cache kept for it (decision 017). */
type CachedReads = { db: Db; database: Pick<Database, 'readCache'> };

/**
 * The user's cards as the JSON answer of GET /api/cards. /my-cards asks for the same list again
 * and again, so the answer, built and checked against the contract once by `serialize` (the
 * route's own serializer), is sent again while the rows it came from are the read cache's
 * (decision 017) and no card has reached the end of its validity since (the only way the clock
 * changes a card's view: `can`).
 */
export async function listCardsJson(deps: CachedReads & { now(): Date }, userId: string, filter: CardFilter, serialize: (answer: { cards: Card[] }) => string): Promise<string> {
  const rows = await cardRows(deps, userId, filter);
  const nowMs = deps.now().getTime();
  const sent = sentLists.get(rows);
  if (sent && sent.builtAtMs <= nowMs && nowMs < sent.freshUntilMs) return sent.json;
  const now = new Date(nowMs);
  const json = serialize({ cards: rows.map((row) => toCardView(row, now)) });
  sentLists.set(rows, { json, builtAtMs: nowMs, freshUntilMs: nextValidityEnd(rows, nowMs) });
  return json;
}

/** The first moment after `nowMs` at which one of these cards leaves its validity period. */
function nextValidityEnd(rows: readonly CardRow[], nowMs: number): number {
  let next = Infinity;
  for (const row of rows) {
    const endMs = row.validUntil.getTime();
    if (endMs > nowMs && endMs < next) next = endMs;
  }
  return next;
}

function cardRows(deps: CachedReads, userId: string, filter: CardFilter): Promise<CardRow[]> {
  let prepared = preparedByDb.get(deps.db);
  if (!prepared) preparedByDb.set(deps.db, (prepared = new Map()));
  let query = prepared.get(filter);
  if (!query) prepared.set(filter, (query = prepareList(deps.db, filter)));
  const list = query;
  // Served from the read cache when it has the list (decision 017): a user's requests that change
  // cards forget it (plugins/read-cache.ts), and so does the expiry job.
  return deps.database.readCache.cards(userId, filter, () => list.execute({ userId }));
}

export async function getCard(deps: { db: Db; now(): Date }, userId: string, cardId: string): Promise<Card> {
  return toCardView(await loadOwnedCard(deps.db, userId, cardId), deps.now());
}
