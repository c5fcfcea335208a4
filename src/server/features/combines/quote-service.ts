// The review step's quote, computed by the server from what is stored (never from the client).
import { canUseBoost } from '../../../core/boosts';
import { quoteCombine, type CombineQuote } from '../../../core/quote';
import type { Quote } from '../../../contracts/combines';
import type { Db, DbOrTx } from '../../db/client';
import { combines } from '../../db/schema';
import { badRequest, refusalError } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { notADraftRefusal } from '../../../core/plan-completion';
import { expiredDraftRefusal } from '../../../core/draft-lifetime';
import { eq } from 'drizzle-orm';
import { loadCombine, loadSources, quoteInputSources, type CombineRow, type SourceRow } from './combine-view';
import { loadPricing, loadUser, type Pricing, type UserRow } from './pricing';

export type QuoteChoices = { useBoost: boolean; creationFeeSourceIdx: number; cardType: 'general' | 'single-use' };

export function computeQuote(row: CombineRow, sources: SourceRow[], user: UserRow, pricing: Pricing, choices: QuoteChoices): { core: CombineQuote; api: Quote } {
  if (choices.creationFeeSourceIdx >= sources.length) {
    throw badRequest('Choose one of the added sources, or the new card, to pay the card-creation fee.');
  }
  const boostCheck = canUseBoost({ boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed });
  const boostUsed = choices.useBoost && boostCheck.ok;
  const core = quoteCombine({
    plan: pricing.plan,
    promoActive: pricing.promoActive || pricing.promoClaim,
    boostUsed,
    totalCents: row.totalAmountCents,
    taxBufferCents: Math.min(row.taxBufferCents, row.totalAmountCents),
    sources: quoteInputSources(sources),
    creationFeeSourceIndex: choices.creationFeeSourceIdx,
  });
  const api: Quote = {
    productFeePpm: core.productFeePpm,
    promoApplies: pricing.promoActive || pricing.promoClaim,
    promoClaim: pricing.promoClaim,
    boostUsed,
    boost: { available: user.boostsAvailable, used: user.boostsUsed, usable: boostCheck.ok, message: boostCheck.ok ? null : boostCheck.message },
    cardType: choices.cardType,
    totalCents: core.totalCents,
    taxBufferCents: core.taxBufferCents,
    sources: core.sources.map((s, i) => ({
      index: s.index,
      sourceId: sources[i]?.id ?? '',
      kind: s.kind,
      provider: s.provider,
      chargeCents: s.chargeCents,
      processorFeeCents: s.processorFeeCents,
      productFeeCents: s.productFeeCents,
      netCents: s.netCents,
      bnplFeeMaxCents: s.bnplFeeMaxCents,
      bnplFeeActualCents: s.bnplFeeActualCents,
      rebateCents: s.rebateCents,
      creationFeeCents: s.creationFeeCents,
      chargedCents: s.chargedCents,
      oneTimeCardChargeCents: s.oneTimeCardChargeCents,
    })),
    productFeeCents: core.productFeeCents,
    processorFeeCents: core.processorFeeCents,
    bnplFeeActualCents: core.bnplFeeActualCents,
    bnplFeeMaxCents: core.bnplFeeMaxCents,
    rebateCents: core.rebateCents,
    creationFeeCents: core.creationFeeCents,
    creationFeeOnCard: core.creationFeeOnCard,
    netTotalCents: core.netTotalCents,
    totalChargedCents: core.totalChargedCents,
    cardAmountCents: core.cardAmountCents,
    remainingToFundCents: core.remainingToFundCents,
    canContinue: core.canContinue,
  };
  return { core, api };
}

/** POST /quote: computes the quote and remembers the review choices on the draft. */
export async function quoteForReview(deps: { db: Db; now(): Date }, userId: string, combineId: string, choices: QuoteChoices): Promise<Quote> {
  return inTransaction(deps.db, async (tx) => {
    const row = await loadCombine(tx, userId, combineId);
    // docs/rules.md#review: a combine that is processing, completed or failed is never re-quoted.
    const notADraft = notADraftRefusal(row.status, 'quote') ?? expiredDraftRefusal(row.createdAt, deps.now());
    if (notADraft) throw refusalError(notADraft);
    const { api } = await quoteFor(tx, deps.now(), row, userId, choices);
    await tx
      .update(combines)
      .set({ useBoost: choices.useBoost, creationFeeSourceIdx: choices.creationFeeSourceIdx, cardType: choices.cardType, updatedAt: deps.now() })
      .where(eq(combines.id, combineId));
    return api;
  });
}

async function quoteFor(db: DbOrTx, now: Date, row: CombineRow, userId: string, choices: QuoteChoices) {
  const [user, sources] = await Promise.all([loadUser(db, userId), loadSources(db, row.id)]);
  const pricing = await loadPricing(db, user, row.totalAmountCents, now);
  return computeQuote(row, sources, user, pricing, choices);
}
