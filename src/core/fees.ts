// The fee model of docs/rules.md#fee-examples. The spec's float formulas ((N + 0.30) / 0.961 and so on) are
// only estimates of these integer rules and are deliberately not reproduced.

import { applyPpm, assertNonNegativeCents, assertPpm, PPM_PER_UNIT } from './money';
import { PLANS } from './plans';
import type { PlanId } from './plans';

export const PROCESSOR_FEE_PPM = 29_000;
export const PROCESSOR_FIXED_FEE_CENTS = 30;
export const CREATION_FEE_CENTS = 10;
/** The BNPL one-time card is made 10% larger than the charge so any provider fee fits in it. */
export const BNPL_FEE_MAX_PPM = 100_000;
/** Rate for a BNPL provider not in the table ("other 4%"). */
export const BNPL_DEFAULT_FEE_PPM = 40_000;

export type SourceType = 'credit' | 'debit' | 'prepaid' | 'bnpl';
export type SourceKind = 'card' | 'bnpl' | 'internal';
export type BnplProviderId = 'affirm' | 'klarna' | 'zip' | 'afterpay';
export type CardProviderId = 'visa' | 'mastercard' | 'amex' | 'discover' | 'payweave_prepaid';
export type ProviderId = CardProviderId | BnplProviderId;

export const SOURCE_TYPES: readonly SourceType[] = ['credit', 'debit', 'prepaid', 'bnpl'];

export const SOURCE_TYPE_LABELS: Readonly<Record<SourceType, string>> = {
  credit: 'Credit',
  debit: 'Debit',
  prepaid: 'Prepaid',
  bnpl: 'BNPL',
};

export const BNPL_PROVIDERS: Readonly<Record<BnplProviderId, { label: string; feePpm: number }>> = {
  affirm: { label: 'Affirm', feePpm: 40_000 },
  klarna: { label: 'Klarna', feePpm: 35_000 },
  zip: { label: 'Zip', feePpm: 30_000 },
  afterpay: { label: 'Afterpay', feePpm: 45_000 },
};

export const PROVIDER_LABELS: Readonly<Record<ProviderId, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'Amex',
  discover: 'Discover',
  payweave_prepaid: 'PayWeave Prepaid',
  affirm: 'Affirm',
  klarna: 'Klarna',
  zip: 'Zip',
  afterpay: 'Afterpay',
};

/** Providers the add-source form offers for each type (docs/rules.md#sources). */
export const PROVIDERS_BY_SOURCE_TYPE: Readonly<Record<SourceType, readonly ProviderId[]>> = {
  credit: ['visa', 'mastercard', 'amex', 'discover'],
  debit: ['visa', 'mastercard', 'amex', 'discover'],
  prepaid: ['visa', 'mastercard', 'payweave_prepaid'],
  bnpl: ['affirm', 'klarna', 'zip', 'afterpay'],
};

export function isSourceType(value: unknown): value is SourceType {
  return typeof value === 'string' && (SOURCE_TYPES as readonly string[]).includes(value);
}

export function isProviderAllowed(type: SourceType, provider: string): provider is ProviderId {
  return (PROVIDERS_BY_SOURCE_TYPE[type] as readonly string[]).includes(provider);
}

/**
 * Fee kind of a source entered in the form. Prepaid cards, PayWeave Prepaid included, are
 * card sources (docs/rules.md#fee-examples lists Prepaid with Credit and Debit); 'internal' is reserved for
 * an existing PayWeave virtual card reused as a source, which the server identifies itself.
 */
export function sourceKindFor(type: SourceType): Exclude<SourceKind, 'internal'> {
  return type === 'bnpl' ? 'bnpl' : 'card';
}

/** Provider rate; unknown providers pay the default rate, case of the name ignored. */
export function bnplFeePpm(provider: string): number {
  const key = provider.trim().toLowerCase();
  return Object.hasOwn(BNPL_PROVIDERS, key)
    ? BNPL_PROVIDERS[key as BnplProviderId].feePpm
    : BNPL_DEFAULT_FEE_PPM;
}

/** Plan rate, halved while the launch promo is active, waived entirely by a boost. */
export function productFeePpm(input: { plan: PlanId; promoActive: boolean; boostUsed: boolean }): number {
  if (input.boostUsed) return 0;
  const rate = PLANS[input.plan].productFeePpm;
  return input.promoActive ? halveRate(rate) : rate;
}

function halveRate(ratePpm: number): number {
  // Every plan rate is even, so halving stays an exact integer ppm; an odd rate would mean the
  // table changed and the halving rule needs a decision, not a silent rounding.
  if (ratePpm % 2 !== 0) throw new RangeError(`cannot halve odd rate ${ratePpm} ppm exactly`);
  return ratePpm / 2;
}

export interface CardSourceFees {
  chargeCents: number;
  processorFeeCents: number;
  productFeeCents: number;
  /** What reaches the new card; <= 0 makes the source invalid. */
  netCents: number;
}

export interface BnplSourceFees extends CardSourceFees {
  bnplFeeMaxCents: number;
  bnplFeeActualCents: number;
  rebateCents: number;
  /** The BNPL one-time card is charged the charge plus the maximum BNPL fee. */
  oneTimeCardChargeCents: number;
}

export function processorFeeCents(chargeCents: number): number {
  return applyPpm(chargeCents, PROCESSOR_FEE_PPM) + PROCESSOR_FIXED_FEE_CENTS;
}

export function cardSourceFees(chargeCents: number, productFeeRatePpm: number): CardSourceFees {
  assertNonNegativeCents(chargeCents, 'chargeCents');
  const processor = processorFeeCents(chargeCents);
  const product = applyPpm(chargeCents, productFeeRatePpm);
  return {
    chargeCents,
    processorFeeCents: processor,
    productFeeCents: product,
    netCents: chargeCents - processor - product,
  };
}

export function bnplSourceFees(
  chargeCents: number,
  provider: string,
  productFeeRatePpm: number,
): BnplSourceFees {
  const card = cardSourceFees(chargeCents, productFeeRatePpm);
  const max = applyPpm(chargeCents, BNPL_FEE_MAX_PPM);
  const actual = applyPpm(chargeCents, bnplFeePpm(provider));
  // Provider rates never exceed the 10% allowance and rounding is monotone in the rate,
  // so the rebate cannot go negative; if the table ever changes, fail loudly.
  if (actual > max) throw new RangeError(`BNPL fee ${actual} exceeds the ${max} allowance`);
  return {
    ...card,
    bnplFeeMaxCents: max,
    bnplFeeActualCents: actual,
    rebateCents: max - actual,
    oneTimeCardChargeCents: chargeCents + max,
  };
}

/** A PayWeave card reused as a source: no card processor is involved, the product fee applies. */
export function internalSourceFees(chargeCents: number, productFeeRatePpm: number): CardSourceFees {
  assertNonNegativeCents(chargeCents, 'chargeCents');
  const product = applyPpm(chargeCents, productFeeRatePpm);
  return {
    chargeCents,
    processorFeeCents: 0,
    productFeeCents: product,
    netCents: chargeCents - product,
  };
}

export function sourceNetCents(chargeCents: number, productFeeRatePpm: number, kind: SourceKind): number {
  return kind === 'internal'
    ? internalSourceFees(chargeCents, productFeeRatePpm).netCents
    : cardSourceFees(chargeCents, productFeeRatePpm).netCents;
}

export const FEE_MESSAGES = {
  sourceTooSmall: 'This amount is too small to cover the fees. Please enter a larger amount.',
} as const;

/** docs/rules.md#card-source-fees: a source whose net would be <= 0 is rejected. */
export function isSourceNetPositive(chargeCents: number, productFeeRatePpm: number, kind: SourceKind): boolean {
  return sourceNetCents(chargeCents, productFeeRatePpm, kind) > 0;
}

/**
 * The smallest charge C whose net is at least `netCents` (docs/rules.md#suggested-charge); 0 when nothing is
 * needed, so it can be called with a quote's remainingToFundCents as is.
 *
 * net(C) = C - fixed - Σ round_half_up(C·pᵢ/1e6) is not monotone (two rounded fees can step up
 * at the same cent, so net can fall by one), which rules out a plain inverse or a bisection.
 * Instead: each rounded fee lies in (x - 1/2, x + 1/2], so net(C) < C·(1 - P) - fixed + k/2 with
 * P the summed rate and k the number of rounded fees. Hence no C below
 * (N + fixed - k/2) / (1 - P) can reach N, and scanning upward from just under that bound
 * finds the first C that does within a handful of steps (net(C) >= C·(1 - P) - fixed - k/2).
 */
export function smallestChargeForNet(netCents: number, productFeeRatePpm: number, kind: SourceKind): number {
  assertNonNegativeCents(netCents, 'netCents');
  assertPpm(productFeeRatePpm, 'productFeeRatePpm');
  // Nothing left to fund needs no source at all, rather than a source that only costs fees.
  if (netCents === 0) return 0;
  const viaProcessor = kind !== 'internal';
  const fixed = viaProcessor ? PROCESSOR_FIXED_FEE_CENTS : 0;
  const roundedFees = viaProcessor ? 2 : 1;
  const summedPpm = productFeeRatePpm + (viaProcessor ? PROCESSOR_FEE_PPM : 0);
  if (summedPpm >= PPM_PER_UNIT) throw new RangeError('fees of 100% or more can never be covered');

  const lowerBound = (BigInt(netCents + fixed - roundedFees) * BigInt(PPM_PER_UNIT)) /
    BigInt(PPM_PER_UNIT - summedPpm);
  let charge = Math.max(1, Number(lowerBound));
  while (sourceNetCents(charge, productFeeRatePpm, kind) < netCents) charge += 1;
  assertNonNegativeCents(charge, 'charge');
  return charge;
}

export interface CashoutFee {
  ratePpm: number;
  feeCents: number;
  netCents: number;
}

/** The smallest cash-out fee (docs/rules.md#cashout-fee): splitting a cash-out into pieces saves nothing. */
export const CASHOUT_MIN_FEE_CENTS = 1;

/**
 * Plan cash-out rate, halved while the promo is active (docs/rules.md#cashout-fee), never below $0.01 for a
 * non-zero amount; net = amount - fee. A cash-out must leave a net above zero, so the smallest one
 * is $0.02 (`CASHOUT_MIN_AMOUNT_CENTS`, decision 101).
 */
export function cashoutFee(input: { amountCents: number; plan: PlanId; promoActive: boolean }): CashoutFee {
  assertNonNegativeCents(input.amountCents, 'amountCents');
  const base = PLANS[input.plan].cashoutFeePpm;
  const ratePpm = input.promoActive ? halveRate(base) : base;
  const feeCents = input.amountCents === 0 ? 0 : Math.min(input.amountCents, Math.max(CASHOUT_MIN_FEE_CENTS, applyPpm(input.amountCents, ratePpm)));
  return { ratePpm, feeCents, netCents: input.amountCents - feeCents };
}

/** The smallest amount a cash-out may take: more than its smallest fee, so something is paid out. */
export const CASHOUT_MIN_AMOUNT_CENTS = CASHOUT_MIN_FEE_CENTS + 1;
