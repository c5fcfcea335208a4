// Shapes a combine row and its sources into the API's Combine (src/contracts/combines.ts).
// Drafts show fees at the user's current rate; completed combines show what was charged.
import { and, asc, eq, sql } from 'drizzle-orm';
import { smallestChargeForNet } from '../../../core/fees';
import { quoteCombine, type QuoteSourceInput } from '../../../core/quote';
import type { Combine } from '../../../contracts/combines';
import type { DbOrTx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { cards, combineSources, combines, rebates } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { Pricing } from './pricing';

export type CombineRow = typeof combines.$inferSelect;
export type SourceRow = typeof combineSources.$inferSelect;

export const COMBINE_NOT_FOUND = 'Could not find the saved combine.';

// Named statements, built once (db/named-statement.ts): parsed and planned once per connection.
const combineOfUser = (db: DbOrTx) =>
  db
    .select()
    .from(combines)
    .where(and(eq(combines.id, sql.placeholder('combineId')), eq(combines.userId, sql.placeholder('userId'))));
const loadCombineStatement = namedStatement('load_combine', (db) => combineOfUser(db));
const loadCombineForUpdateStatement = namedStatement('load_combine_for_update', (db) => combineOfUser(db).for('no key update'));
const loadSourcesStatement = namedStatement('load_sources', (db) =>
  db
    .select()
    .from(combineSources)
    .where(eq(combineSources.combineId, sql.placeholder('combineId')))
    .orderBy(asc(combineSources.position)),
);
export async function loadCombine(db: DbOrTx, userId: string, combineId: string, options: { forUpdate?: boolean } = {}): Promise<CombineRow> {
  const [row] = await (options.forUpdate ? loadCombineForUpdateStatement : loadCombineStatement)(db, { combineId, userId });
  if (!row) throw notFound(COMBINE_NOT_FOUND);
  return row;
}

export async function loadSources(db: DbOrTx, combineId: string): Promise<SourceRow[]> {
  return loadSourcesStatement(db, { combineId });
}

export function sourceKind(type: string): QuoteSourceInput['kind'] {
  if (type === 'bnpl') return 'bnpl';
  if (type === 'internal') return 'internal';
  return 'card';
}

export function quoteInputSources(sources: SourceRow[]): QuoteSourceInput[] {
  return sources.map((s) => ({ kind: sourceKind(s.type), provider: s.provider, chargeCents: s.chargeCents }));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Rows the caller already holds (it just wrote them), so they need not be read again. */
export type KnownRows = { card?: typeof cards.$inferSelect; rebates?: Array<typeof rebates.$inferSelect> };

export async function buildCombineView(db: DbOrTx, row: CombineRow, sources: SourceRow[], pricing: Pricing, known: KnownRows = {}): Promise<Combine> {
  if (row.status !== 'completed' || !row.cardId) return combineViewOf(row, sources, pricing, { card: undefined, rebates: [] });
  const [card] = known.card?.id === row.cardId ? [known.card] : await db.select().from(cards).where(eq(cards.id, row.cardId));
  return combineViewOf(row, sources, pricing, { card, rebates: known.rebates ?? (await db.select().from(rebates).where(eq(rebates.combineId, row.id))) });
}

/** The combine as the API shows it, from rows already in hand (a completed one's card and rebates). */
export function combineViewOf(row: CombineRow, sources: SourceRow[], pricing: Pricing, rows: { card: typeof cards.$inferSelect | undefined; rebates: Array<typeof rebates.$inferSelect> }): Combine {
  const completed = row.status === 'completed';
  const draftQuote = quoteCombine({
    plan: pricing.plan,
    promoActive: pricing.promoActive || pricing.promoClaim,
    boostUsed: false,
    totalCents: row.totalAmountCents,
    taxBufferCents: Math.min(row.taxBufferCents, row.totalAmountCents),
    sources: quoteInputSources(sources),
    creationFeeSourceIndex: row.creationFeeSourceIdx < sources.length ? row.creationFeeSourceIdx : -1,
  });
  const remaining = draftQuote.remainingToFundCents;
  const suggest = (kind: QuoteSourceInput['kind']) => (remaining > 0 ? smallestChargeForNet(remaining, pricing.baseProductFeePpm, kind) : 0);

  let card: Combine['card'] = null;
  let rebateRows: Combine['rebates'] = [];
  if (completed && row.cardId) {
    const c = rows.card;
    if (c) {
      card = {
        id: c.id,
        status: c.status,
        frozen: c.frozen,
        type: c.type as 'general' | 'single-use',
        last4: c.last4,
        network: c.network,
        originalAmountCents: c.originalAmountCents,
        remainingAmountCents: c.remainingAmountCents,
        amountSpentCents: c.amountSpentCents,
        issuedAt: c.issuedAt.toISOString(),
        promoApplied: c.promoApplied,
      };
    }
    rebateRows = rows.rebates.map((r) => ({
      id: r.id,
      sourceId: r.sourceId,
      bnplFeeMaxCents: r.bnplFeeMaxCents,
      bnplFeeActualCents: r.bnplFeeActualCents,
      rebateAmountCents: r.rebateAmountCents,
      status: r.status as 'pending' | 'processed',
      payoutMethod: r.payoutMethod,
      processedAt: iso(r.processedAt),
    }));
  }

  return {
    id: row.id,
    status: row.status as Combine['status'],
    baseAmountCents: row.baseAmountCents,
    taxBufferCents: row.taxBufferCents,
    totalAmountCents: row.totalAmountCents,
    includeTaxBuffer: row.includeTaxBuffer,
    baseInput: row.baseInput,
    bufferInput: row.bufferInput,
    bufferMode: row.bufferMode as 'percent' | 'dollars',
    currentStep: row.currentStep,
    bnplStepCompleted: row.bnplStepCompleted,
    bnplCheckoutCompleted: row.bnplCheckoutCompleted,
    useBoost: row.useBoost,
    creationFeeSourceIdx: row.creationFeeSourceIdx,
    cardType: row.cardType as 'general' | 'single-use',
    promoApplied: row.promoApplied,
    promoDiscount: row.promoDiscount,
    bnplFeeMaxCents: row.bnplFeeMaxCents,
    bnplFeeActualCents: row.bnplFeeActualCents,
    cardId: row.cardId,
    rebateId: row.rebateId,
    formData: (row.formData ?? {}) as Record<string, unknown>,
    sources: sources.map((s, index) => {
      const q = draftQuote.sources[index];
      // A completed combine shows the fees it was charged; a draft, today's estimate.
      const fees = completed
        ? {
            processorFeeCents: s.processorFeeCents,
            productFeeCents: s.productFeeCents,
            netCents: s.netCents,
            bnplFeeMaxCents: s.bnplFeeMaxCents,
            bnplFeeActualCents: s.bnplFeeActualCents,
            rebateCents: s.rebateCents,
            oneTimeCardChargeCents: s.type === 'bnpl' ? s.chargeCents + s.bnplFeeMaxCents : null,
          }
        : {
            processorFeeCents: q?.processorFeeCents ?? 0,
            productFeeCents: q?.productFeeCents ?? 0,
            netCents: q?.netCents ?? 0,
            bnplFeeMaxCents: q?.bnplFeeMaxCents ?? 0,
            bnplFeeActualCents: q?.bnplFeeActualCents ?? 0,
            rebateCents: q?.rebateCents ?? 0,
            oneTimeCardChargeCents: s.type === 'bnpl' ? s.chargeCents + (q?.bnplFeeMaxCents ?? 0) : null,
          };
      return {
        id: s.id,
        position: s.position,
        type: s.type as Combine['sources'][number]['type'],
        provider: s.provider,
        chargeCents: s.chargeCents,
        brand: s.brand,
        last4: s.last4,
        expMonth: s.expMonth,
        expYear: s.expYear,
        status: s.status as 'authorized' | 'captured' | 'released',
        sourceCardId: s.sourceCardId,
        bnplCardBrand: s.bnplCardBrand,
        bnplCardLast4: s.bnplCardLast4,
        ...fees,
      };
    }),
    card,
    rebates: rebateRows,
    funding: {
      productFeePpm: pricing.baseProductFeePpm,
      netTotalCents: draftQuote.netTotalCents,
      remainingToFundCents: remaining,
      overfundCents: draftQuote.overfundCents,
      canContinue: draftQuote.canContinue,
      suggestedChargeCents: { card: suggest('card'), bnpl: suggest('bnpl'), internal: suggest('internal') },
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    savedAt: iso(row.savedAt),
    completedAt: iso(row.completedAt),
    simulated: row.simulated,
    testSource: row.testSource,
    environment: row.environment,
  };
}
