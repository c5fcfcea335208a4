// The completion's reader: everything the core decides a completion on (core/plan-completion.ts),
// read in the completion's transaction under locks. Nothing here writes but the key's claim.
import { and, asc, count, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { monthStartUtc } from '../../../core/limits';
import type { CardFacts } from '../../../core/money-plan';
import { notADraftRefusal, type CompletionFacts } from '../../../core/plan-completion';
import { isPayoutMethod, PLANS, type PlanId } from '../../../core/plans';
import type { IssuedCard } from '../../adapters/card-processor';
import type { DbOrTx, Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { cards, combineSources, combines, payoutMethods, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { claimClause, claimedColumn } from '../../lib/idempotency';
import type { Read } from '../../money/run-money-operation';
import { COMBINE_NOT_FOUND, type CombineRow, type SourceRow } from './combine-view';
import { remainingPromoSpots, type UserRow } from './pricing';
import type { QuoteChoices } from './quote-service';

export type CompleteInput = QuoteChoices & { expected: { cardAmountCents: number; totalChargedCents: number; productFeeCents: number } };

/** The rows a completion decides on: the user, the combine, its sources and the cards used as sources. */
export type CompletionRows = { user: UserRow; row: CombineRow; sources: SourceRow[]; sourceCards: CardFacts[] };

/** What the completion's decision takes: the rows as read, and the core's facts made of them. */
export type LoadedCompletion = { loaded: CompletionRows; facts: CompletionFacts };

const sourceCards = alias(cards, 'source_card');

// The user and the combine, both locked, with the combine's sources and the cards used as sources,
// one row per source (the user's and the combine's columns repeated; a draft has a handful of
// sources); the statement also claims the Idempotency-Key (lib/idempotency.ts). Both locks come
// from one statement, so there is no order between them to get wrong; no other path locks a
// combine and then waits for its user (draft edits lock the combine only). NO KEY UPDATE, not
// UPDATE: inserting rows that reference the user (idempotency keys, cards) takes KEY SHARE on it,
// which conflicts with FOR UPDATE and deadlocks two concurrent requests. The source cards are not
// locked (the nullable side of a join cannot be): their conditional debits decide under concurrency.
const loadStatement = namedStatement('load_for_completion', (db) =>
  db
    .with(claimClause(db))
    .select({
      users,
      combines,
      combine_sources: combineSources,
      source_card: {
        id: sourceCards.id,
        status: sourceCards.status,
        frozen: sourceCards.frozen,
        validUntil: sourceCards.validUntil,
        remainingAmountCents: sourceCards.remainingAmountCents,
        last4: sourceCards.last4,
      },
      claimed: claimedColumn(),
    })
    .from(users)
    .innerJoin(combines, eq(combines.userId, users.id))
    .leftJoin(combineSources, eq(combineSources.combineId, combines.id))
    .leftJoin(sourceCards, and(eq(sourceCards.id, combineSources.sourceCardId), eq(sourceCards.userId, users.id)))
    .where(and(eq(users.id, sql.placeholder('userId')), eq(combines.id, sql.placeholder('combineId'))))
    .orderBy(asc(combineSources.position))
    .for('no key update', { of: [users, combines] }),
);

type Request = { userId: string; combineId: string; now: Date; input: CompleteInput; issued: IssuedCard };

export async function readCompletionFacts(tx: Tx, request: Request, claim: Record<string, unknown>): Promise<Read<LoadedCompletion>> {
  const joined = await loadStatement(tx, { ...claim, userId: request.userId, combineId: request.combineId });
  const first = joined[0];
  // The signed-in user exists (their session does): no row means no such combine of theirs.
  if (!first) throw notFound(COMBINE_NOT_FOUND);
  if (first.claimed === 0) return { claimed: false };
  const loaded: CompletionRows = {
    user: first.users,
    row: first.combines,
    sources: joined.flatMap((r) => (r.combine_sources ? [r.combine_sources] : [])),
    sourceCards: joined.flatMap((r) => (r.source_card ? [r.source_card] : [])),
  };
  return { claimed: true, facts: { loaded, facts: await completionFacts(tx, loaded, request) } };
}

/** The core's facts from the loaded rows; the month's count, the promo counter and the rebates' destination are read only when they can matter. */
async function completionFacts(tx: Tx, loaded: CompletionRows, request: Request): Promise<CompletionFacts> {
  const { user, row, sources } = loaded;
  const { now, input, issued } = request;
  const plan = user.subscription as PlanId;
  // A draft that is no draft is refused before any of these counts.
  const refusedAnyway = notADraftRefusal(row.status, 'complete') !== null;
  return {
    now,
    combine: { id: row.id, status: row.status, totalAmountCents: row.totalAmountCents, taxBufferCents: row.taxBufferCents, createdAt: row.createdAt },
    sources,
    sourceCards: loaded.sourceCards,
    user: { plan, boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed, combineTotal: user.combineTotal, promoEnd: user.promoEnd, hasPromo: user.promo50offFirstYear },
    completedThisMonth: refusedAnyway ? 0 : await completedThisMonth(tx, user.id, plan, now),
    promoSpotsLeft: await remainingPromoSpots(tx, user, row.totalAmountCents, now),
    choices: { useBoost: input.useBoost, creationFeeSourceIdx: input.creationFeeSourceIdx, cardType: input.cardType },
    expected: input.expected,
    newCard: { id: crypto.randomUUID(), last4: issued.number.slice(-4) },
    rebatePayout: refusedAnyway || !sources.some((s) => s.type === 'bnpl') ? null : await rebatePayoutOf(tx, user),
  };
}

/** Completed combines this month, read only for a plan that has a monthly limit. */
async function completedThisMonth(db: DbOrTx, userId: string, plan: PlanId, now: Date): Promise<number> {
  if (PLANS[plan].monthlyCombineLimit === null) return 0;
  const [counted] = await db
    .select({ completed: count() })
    .from(combines)
    .where(and(eq(combines.userId, userId), eq(combines.status, 'completed'), gte(combines.completedAt, monthStartUtc(now))));
  return Number(counted?.completed ?? 0);
}

// The user's preferred payout method and the destination the payout provider registered for it
// (decision 168), read after the user's lock: whatever changes them locks the user first.
async function rebatePayoutOf(db: DbOrTx, user: UserRow): Promise<CompletionFacts['rebatePayout']> {
  const method = user.preferredPayout;
  if (!isPayoutMethod(method)) return null;
  const [saved] = await db
    .select({ destination: payoutMethods.destinationRef })
    .from(payoutMethods)
    .where(and(eq(payoutMethods.userId, user.id), eq(payoutMethods.method, method)));
  return saved?.destination ? { method, destination: saved.destination } : null;
}
