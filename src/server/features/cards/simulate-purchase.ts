// POST /api/cards/:id/purchases (demo mode): a merchant authorises and captures an amount on a
// virtual card, as every money operation does (money/run-money-operation.ts): the card read under
// its lock → the core's decision (purchase-decision.ts) → one writer (purchase-write.ts). Approved:
// the card's balance goes down through the ledger (card → merchants) with the purchase row.
// Declined: a declined purchase row says why, and no money moves. Single-use cards close when a
// purchase empties them (docs/rules.md#cards). A purchase sends nothing outside.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { PurchaseRequest } from '../../../contracts/cards';
import { CARD_MESSAGES } from '../../../contracts/cards';
import type { Adapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { cards } from '../../db/schema';
import type { EffectDrain } from '../../effects/drain';
import { liveModeNotImplemented, notFound } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint } from '../../lib/idempotency';
import { runMoneyOperation, type MoneyAnswer, type Read } from '../../money/run-money-operation';
import { loadOwnedCard, type CardRow } from './card-view';
import { decidePurchase } from './purchase-decision';
import { writePurchase } from './purchase-write';
import { readSpendFacts, type SpendFacts } from './spend-facts';

type Deps = { db: Db; effects: EffectDrain; adapters: Pick<Adapters, 'delay'>; config: Pick<Config, 'demoMode'>; now(): Date };

export async function simulatePurchase(
  deps: Deps,
  input: { userId: string; cardId: string; request: PurchaseRequest; idempotencyKey: string },
): Promise<MoneyAnswer> {
  if (!deps.config.demoMode) throw liveModeNotImplemented();
  const { userId, cardId } = input;
  // A 404 for someone else's card before anything else, including the idempotency claim.
  const submitted = await loadOwnedCard(deps.db, userId, cardId);
  // docs/rules.md#demo-declines: a demo payment takes 1 to 2 seconds; the wait holds no locks.
  await deps.adapters.delay('payment');
  const now = deps.now();
  const fingerprint = requestFingerprint({ method: 'POST', route: `/api/cards/${cardId}/purchases`, body: input.request });
  const transactionId = randomUUID();
  return runMoneyOperation(deps, { userId, key: input.idempotencyKey, fingerprint, now }, {
    read: ({ tx, claim }) => readCard(tx, userId, cardId, claim),
    decide: ({ card, databaseNow, spend }) =>
      decidePurchase({ card, frozenWhenSubmitted: submitted.frozen, request: input.request, userId, transactionId, now, databaseNow, ...spend }),
    write: writePurchase,
  });
}

// The card, locked for its debit (NO KEY UPDATE: the rows that reference it only take KEY SHARE),
// with the key's claim: the decision is on the card's figures as they are until the commit. And the
// transaction's time as the database keeps it, which dates the purchase's row (and a single-use
// card's closing), as the table's defaults always have. Then, under that lock, its spend controls
// and spending (spend-facts.ts): concurrent purchases of one card are decided one after the other.
const cardStatement = namedStatement('purchase_card', (db) =>
  db
    .with(claimClause(db))
    .select({ card: cards, claimed: claimedColumn(), databaseNow: sql<Date>`now()`.mapWith(cards.issuedAt) })
    .from(cards)
    .where(and(eq(cards.id, sql.placeholder('cardId')), eq(cards.userId, sql.placeholder('userId'))))
    .for('no key update', { of: cards }),
);

type PurchaseRead = { card: CardRow; databaseNow: Date; spend: SpendFacts };

async function readCard(tx: Tx, userId: string, cardId: string, claim: Record<string, unknown>): Promise<Read<PurchaseRead>> {
  const [row] = await cardStatement(tx, { cardId, userId, ...claim });
  if (!row) throw notFound(CARD_MESSAGES.notFound);
  if (row.claimed !== 1) return { claimed: false };
  const { controls, history } = await readSpendFacts(tx, cardId, row.databaseNow);
  const spend = { controls, history };
  return { claimed: true, facts: { card: row.card, databaseNow: row.databaseNow, spend } };
}
