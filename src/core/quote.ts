// The review step's figures and the server's authoritative charge plan for one combine.
// The same function runs in the browser (to show the quote) and on the server (to charge),
// so what the user reviews is exactly what is charged.

import {
  bnplSourceFees,
  cardSourceFees,
  CREATION_FEE_CENTS,
  internalSourceFees,
  productFeePpm,
} from './fees';
import type { SourceKind } from './fees';
import { assertNonNegativeCents, formatUsd, MAX_CARD_AMOUNT_CENTS, MESSAGES } from './money';
import type { PlanId } from './plans';

export interface QuoteSourceInput {
  kind: SourceKind;
  provider: string;
  chargeCents: number;
}

export interface QuoteInput {
  plan: PlanId;
  promoActive: boolean;
  boostUsed: boolean;
  /** Requested card total, tax buffer included. */
  totalCents: number;
  taxBufferCents: number;
  sources: readonly QuoteSourceInput[];
  /** Index of the source that pays the creation fee; -1 = deducted from the new card. */
  creationFeeSourceIndex: number;
}

export interface SourceQuote {
  index: number;
  kind: SourceKind;
  provider: string;
  chargeCents: number;
  processorFeeCents: number;
  productFeeCents: number;
  netCents: number;
  /** 0 for non-BNPL sources. */
  bnplFeeMaxCents: number;
  bnplFeeActualCents: number;
  rebateCents: number;
  /** CREATION_FEE_CENTS when this source pays the creation fee, else 0. */
  creationFeeCents: number;
  /** Everything taken from this source: charge + BNPL allowance + creation fee if it pays it. */
  chargedCents: number;
  /** BNPL only: the amount the one-time card must cover (= chargedCents); null otherwise. */
  oneTimeCardChargeCents: number | null;
  /** docs/rules.md#card-source-fees: a source whose net is <= 0 is rejected. */
  netIsPositive: boolean;
}

export interface CombineQuote {
  plan: PlanId;
  productFeePpm: number;
  totalCents: number;
  taxBufferCents: number;
  sources: SourceQuote[];
  /** The spec's platformFee. */
  productFeeCents: number;
  /** The spec's stripeFee. */
  processorFeeCents: number;
  /** The spec's bnplFee. */
  bnplFeeActualCents: number;
  bnplFeeMaxCents: number;
  rebateCents: number;
  creationFeeCents: number;
  creationFeeOnCard: boolean;
  /** Sum of the sources' nets. */
  netTotalCents: number;
  /** Everything taken from all sources together. */
  totalChargedCents: number;
  /** The new card's original amount. */
  cardAmountCents: number;
  remainingToFundCents: number;
  overfundCents: number;
  canContinue: boolean;
}

export function quoteCombine(input: QuoteInput): CombineQuote {
  assertNonNegativeCents(input.totalCents, 'totalCents');
  assertNonNegativeCents(input.taxBufferCents, 'taxBufferCents');
  if (input.taxBufferCents > input.totalCents) {
    throw new RangeError('taxBufferCents cannot exceed totalCents: the buffer is part of the total');
  }
  const feeIndex = input.creationFeeSourceIndex;
  if (!Number.isInteger(feeIndex) || feeIndex < -1 || feeIndex >= input.sources.length) {
    throw new RangeError(`creationFeeSourceIndex ${feeIndex} does not name a source or the card (-1)`);
  }

  const ratePpm = productFeePpm(input);
  const sources = input.sources.map((source, index): SourceQuote => {
    const creationFeeCents = index === feeIndex ? CREATION_FEE_CENTS : 0;
    if (source.kind === 'bnpl') {
      const f = bnplSourceFees(source.chargeCents, source.provider, ratePpm);
      const chargedCents = f.oneTimeCardChargeCents + creationFeeCents;
      return {
        index,
        kind: source.kind,
        provider: source.provider,
        chargeCents: f.chargeCents,
        processorFeeCents: f.processorFeeCents,
        productFeeCents: f.productFeeCents,
        netCents: f.netCents,
        bnplFeeMaxCents: f.bnplFeeMaxCents,
        bnplFeeActualCents: f.bnplFeeActualCents,
        rebateCents: f.rebateCents,
        creationFeeCents,
        chargedCents,
        oneTimeCardChargeCents: chargedCents,
        netIsPositive: f.netCents > 0,
      };
    }
    const f = source.kind === 'internal'
      ? internalSourceFees(source.chargeCents, ratePpm)
      : cardSourceFees(source.chargeCents, ratePpm);
    return {
      index,
      kind: source.kind,
      provider: source.provider,
      chargeCents: f.chargeCents,
      processorFeeCents: f.processorFeeCents,
      productFeeCents: f.productFeeCents,
      netCents: f.netCents,
      bnplFeeMaxCents: 0,
      bnplFeeActualCents: 0,
      rebateCents: 0,
      creationFeeCents,
      chargedCents: f.chargeCents + creationFeeCents,
      oneTimeCardChargeCents: null,
      netIsPositive: f.netCents > 0,
    };
  });

  const sum = (pick: (s: SourceQuote) => number): number =>
    sources.reduce((total, s) => total + pick(s), 0);

  const creationFeeOnCard = feeIndex === -1;
  const netTotalCents = sum((s) => s.netCents);
  const productFeeCents = sum((s) => s.productFeeCents);
  const processorFeeCents = sum((s) => s.processorFeeCents);
  const bnplFeeActualCents = sum((s) => s.bnplFeeActualCents);
  const bnplFeeMaxCents = sum((s) => s.bnplFeeMaxCents);
  const rebateCents = sum((s) => s.rebateCents);
  const totalChargedCents = sum((s) => s.chargedCents);
  const cardAmountCents = netTotalCents - (creationFeeOnCard ? CREATION_FEE_CENTS : 0);

  // Every cent taken from the sources must be accounted for: it either lands on the card,
  // pays a fee, or comes back as a rebate. A mismatch here would be money created or lost.
  const accountedCents = cardAmountCents + productFeeCents + processorFeeCents +
    bnplFeeActualCents + rebateCents + CREATION_FEE_CENTS;
  if (totalChargedCents !== accountedCents) {
    throw new Error(
      `quote invariant violated: charged ${totalChargedCents} != accounted ${accountedCents}`,
    );
  }
  for (const s of sources) {
    if (s.processorFeeCents < 0 || s.productFeeCents < 0 || s.bnplFeeActualCents < 0 || s.rebateCents < 0) {
      throw new Error(`quote invariant violated: negative fee on source ${s.index}`);
    }
  }

  const remainingToFundCents = Math.max(0, input.totalCents - netTotalCents);
  const overfundCents = Math.max(0, netTotalCents - input.totalCents);
  const canContinue = sources.length > 0 &&
    sources.every((s) => s.netIsPositive) &&
    remainingToFundCents === 0 &&
    cardAmountCents > 0 &&
    cardAmountCents <= MAX_CARD_AMOUNT_CENTS;

  return {
    plan: input.plan,
    productFeePpm: ratePpm,
    totalCents: input.totalCents,
    taxBufferCents: input.taxBufferCents,
    sources,
    productFeeCents,
    processorFeeCents,
    bnplFeeActualCents,
    bnplFeeMaxCents,
    rebateCents,
    creationFeeCents: CREATION_FEE_CENTS,
    creationFeeOnCard,
    netTotalCents,
    totalChargedCents,
    cardAmountCents,
    remainingToFundCents,
    overfundCents,
    canContinue,
  };
}

export const FUNDING_MESSAGES = {
  noSources: 'Please add at least one payment source',
  sourceTooSmall: 'A payment source is too small to cover its fees. Please remove it or enter a larger amount.',
  cardEmpty: 'The new card would hold nothing after fees. Please add more.',
} as const;

export function underfundedMessage(netTotalCents: number, totalCents: number): string {
  return `The payment sources after fees only add up to ${formatUsd(netTotalCents)} (needed: ${formatUsd(totalCents)}). Please add more.`;
}

/**
 * Whether fee rounding can account for an overfund: each source's fees are rounded to the cent,
 * which moves what it brings by at most a cent, so n sources can overshoot by n cents on their own.
 * More than that was charged on purpose (or by mistake), and rounding must not take the blame
 * (decision 161).
 */
export function overfundFromRounding(overfundCents: number, sourceCount: number): boolean {
  return overfundCents <= sourceCount;
}

export function overfundMessage(overfundCents: number, sourceCount: number): string {
  const extra = formatUsd(overfundCents);
  return overfundFromRounding(overfundCents, sourceCount)
    ? `Your payment sources add up to ${extra} more than needed because of fee rounding. The extra stays on your new card.`
    : `Your payment sources add up to ${extra} more than needed. The extra stays on your new card; to charge less, go back to Sources and replace a source with a smaller one.`;
}

export type FundingCheck =
  | { ok: true; overfundCents: number; showOverfundInfo: boolean; overfundInfo: string | null }
  | { ok: false; message: string };

/**
 * Step 2's Continue gate (docs/rules.md#funding, docs/rules.md#funding): at least one source, every source adds money,
 * nets cover the whole total (no 1-cent tolerance: DECISIONS requires sum of nets >= total),
 * and the card stays within the maximum. Overfunding by more than a cent earns an info toast.
 */
export function fundingCheck(
  quote: Pick<CombineQuote, 'sources' | 'netTotalCents' | 'totalCents' | 'cardAmountCents'>,
): FundingCheck {
  if (quote.sources.length === 0) return { ok: false, message: FUNDING_MESSAGES.noSources };
  if (quote.sources.some((s) => s.netCents <= 0)) {
    return { ok: false, message: FUNDING_MESSAGES.sourceTooSmall };
  }
  if (quote.netTotalCents < quote.totalCents) {
    return { ok: false, message: underfundedMessage(quote.netTotalCents, quote.totalCents) };
  }
  if (quote.cardAmountCents <= 0) return { ok: false, message: FUNDING_MESSAGES.cardEmpty };
  if (quote.cardAmountCents > MAX_CARD_AMOUNT_CENTS) return { ok: false, message: MESSAGES.maxCardAmount };
  const overfundCents = quote.netTotalCents - quote.totalCents;
  const showOverfundInfo = overfundCents > 1;
  return {
    ok: true,
    overfundCents,
    showOverfundInfo,
    overfundInfo: showOverfundInfo ? overfundMessage(overfundCents, quote.sources.length) : null,
  };
}
