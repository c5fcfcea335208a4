import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CREATION_FEE_CENTS, smallestChargeForNet } from './fees';
import type { SourceKind } from './fees';
import { MESSAGES } from './money';
import type { PlanId } from './plans';
import { FUNDING_MESSAGES, fundingCheck, quoteCombine } from './quote';
import type { QuoteInput } from './quote';

const base: Omit<QuoteInput, 'sources' | 'totalCents' | 'taxBufferCents'> = {
  plan: 'free',
  promoActive: false,
  boostUsed: false,
  creationFeeSourceIndex: -1,
};

describe('quoteCombine reproduces the docs/rules.md#fee-examples sources', () => {
  it('card $300.00 + Klarna $150.00 on Free: per-source fees and totals to the cent', () => {
    const q = quoteCombine({
      ...base,
      totalCents: 43_185,
      taxBufferCents: 0,
      sources: [
        { kind: 'card', provider: 'visa', chargeCents: 30_000 },
        { kind: 'bnpl', provider: 'klarna', chargeCents: 15_000 },
      ],
    });
    expect(q.productFeePpm).toBe(10_000);
    expect(q.sources[0]).toMatchObject({
      processorFeeCents: 900, productFeeCents: 300, netCents: 28_800, chargedCents: 30_000,
      oneTimeCardChargeCents: null, creationFeeCents: 0,
    });
    expect(q.sources[1]).toMatchObject({
      processorFeeCents: 465, productFeeCents: 150, netCents: 14_385,
      bnplFeeMaxCents: 1_500, bnplFeeActualCents: 525, rebateCents: 975,
      chargedCents: 16_500, oneTimeCardChargeCents: 16_500,
    });
    expect(q).toMatchObject({
      netTotalCents: 43_185,
      productFeeCents: 450,
      processorFeeCents: 1_365,
      bnplFeeActualCents: 525,
      bnplFeeMaxCents: 1_500,
      rebateCents: 975,
      creationFeeCents: 10,
      creationFeeOnCard: true,
      totalChargedCents: 46_500,
      cardAmountCents: 43_175,
      remainingToFundCents: 0,
      overfundCents: 0,
      canContinue: true,
    });
  });

  it('adds the creation fee on top of the chosen source and leaves the card whole', () => {
    const q = quoteCombine({
      ...base,
      creationFeeSourceIndex: 1,
      totalCents: 43_185,
      taxBufferCents: 0,
      sources: [
        { kind: 'card', provider: 'visa', chargeCents: 30_000 },
        { kind: 'bnpl', provider: 'klarna', chargeCents: 15_000 },
      ],
    });
    expect(q.sources[1]).toMatchObject({ creationFeeCents: 10, chargedCents: 16_510, oneTimeCardChargeCents: 16_510 });
    expect(q.sources[1]?.processorFeeCents).toBe(465); // no further fees on the creation fee
    expect(q.cardAmountCents).toBe(43_185);
    expect(q.totalChargedCents).toBe(46_510);
    expect(q.creationFeeOnCard).toBe(false);
  });

  it('uses the suggested charge for $118.15 and lands exactly on the total', () => {
    const q = quoteCombine({
      ...base,
      totalCents: 11_815,
      taxBufferCents: 1_074,
      sources: [{ kind: 'card', provider: 'visa', chargeCents: smallestChargeForNet(11_815, 10_000, 'card') }],
    });
    expect(q.sources[0]?.chargeCents).toBe(12_325);
    expect(q.netTotalCents).toBe(11_815);
    expect(q.canContinue).toBe(true);
    expect(q.taxBufferCents).toBe(1_074);
  });

  it('halves the product fee with the promo and waives it with a boost', () => {
    const sources = [{ kind: 'card' as const, provider: 'visa', chargeCents: 100_000 }];
    const promo = quoteCombine({ ...base, plan: 'premium', promoActive: true, totalCents: 1, taxBufferCents: 0, sources });
    expect(promo.productFeePpm).toBe(2_500);
    expect(promo.productFeeCents).toBe(250);
    const boost = quoteCombine({ ...base, boostUsed: true, totalCents: 1, taxBufferCents: 0, sources });
    expect(boost.productFeeCents).toBe(0);
  });
});

describe('quoteCombine funding state', () => {
  it('cannot continue without sources and reports the whole total as remaining', () => {
    const q = quoteCombine({ ...base, totalCents: 5_000, taxBufferCents: 0, sources: [] });
    expect(q.canContinue).toBe(false);
    expect(q.remainingToFundCents).toBe(5_000);
    expect(q.totalChargedCents).toBe(0);
    expect(q.cardAmountCents).toBe(-CREATION_FEE_CENTS);
  });
  it('cannot continue one cent short (no 0.01 tolerance: DECISIONS requires nets >= total)', () => {
    const q = quoteCombine({
      ...base, totalCents: 28_801, taxBufferCents: 0,
      sources: [{ kind: 'card', provider: 'visa', chargeCents: 30_000 }],
    });
    expect(q.remainingToFundCents).toBe(1);
    expect(q.canContinue).toBe(false);
  });
  it('keeps an overfund on the card', () => {
    const q = quoteCombine({
      ...base, totalCents: 28_700, taxBufferCents: 0,
      sources: [{ kind: 'card', provider: 'visa', chargeCents: 30_000 }],
    });
    expect(q.overfundCents).toBe(100);
    expect(q.cardAmountCents).toBe(28_790);
    expect(q.canContinue).toBe(true);
  });
  it('cannot continue with a source whose net is <= 0', () => {
    const q = quoteCombine({
      ...base, totalCents: 28_800, taxBufferCents: 0,
      sources: [
        { kind: 'card', provider: 'visa', chargeCents: 30_000 },
        { kind: 'card', provider: 'visa', chargeCents: 31 },
      ],
    });
    expect(q.sources[1]?.netIsPositive).toBe(false);
    expect(q.canContinue).toBe(false);
  });
  it('cannot continue when the card would exceed $50,000.00', () => {
    const q = quoteCombine({
      ...base, creationFeeSourceIndex: 0, totalCents: 5_000_000, taxBufferCents: 0,
      sources: [{ kind: 'internal', provider: 'payweave', chargeCents: 5_100_000 }],
    });
    expect(q.cardAmountCents).toBeGreaterThan(5_000_000);
    expect(q.canContinue).toBe(false);
    expect(fundingCheck(q)).toEqual({ ok: false, message: MESSAGES.maxCardAmount });
  });
  it('refuses a creation-fee index that names no source', () => {
    const sources = [{ kind: 'card' as const, provider: 'visa', chargeCents: 1_000 }];
    expect(() => quoteCombine({ ...base, creationFeeSourceIndex: 1, totalCents: 1, taxBufferCents: 0, sources })).toThrow(RangeError);
    expect(() => quoteCombine({ ...base, creationFeeSourceIndex: -2, totalCents: 1, taxBufferCents: 0, sources })).toThrow(RangeError);
    expect(() => quoteCombine({ ...base, creationFeeSourceIndex: 0.5, totalCents: 1, taxBufferCents: 0, sources })).toThrow(RangeError);
  });
  it('refuses fractional or negative charges and a buffer above the total', () => {
    expect(() => quoteCombine({ ...base, totalCents: 1, taxBufferCents: 0, sources: [{ kind: 'card', provider: 'visa', chargeCents: 10.5 }] })).toThrow(TypeError);
    expect(() => quoteCombine({ ...base, totalCents: 1, taxBufferCents: 0, sources: [{ kind: 'card', provider: 'visa', chargeCents: -100 }] })).toThrow(RangeError);
    expect(() => quoteCombine({ ...base, totalCents: 1, taxBufferCents: 2, sources: [] })).toThrow(RangeError);
  });
});

describe('fundingCheck gives the spec step-2 messages', () => {
  const quote = (totalCents: number, charges: number[]) => quoteCombine({
    ...base, totalCents, taxBufferCents: 0,
    sources: charges.map((chargeCents) => ({ kind: 'card' as const, provider: 'visa', chargeCents })),
  });
  it('asks for at least one source', () => {
    expect(fundingCheck(quote(1_000, []))).toEqual({ ok: false, message: 'Please add at least one payment source' });
    expect(FUNDING_MESSAGES.noSources).toBe('Please add at least one payment source');
  });
  it('names both amounts, formatted as USD, when short', () => {
    expect(fundingCheck(quote(123_456, [30_000]))).toEqual({
      ok: false,
      message: 'The payment sources after fees only add up to $288.00 (needed: $1,234.56). Please add more.',
    });
  });
  it('is ok on an exact match without the overfund toast', () => {
    expect(fundingCheck(quote(28_800, [30_000]))).toEqual({
      ok: true, overfundCents: 0, showOverfundInfo: false, overfundInfo: null,
    });
  });
  it('does not toast a 1-cent overfund, does toast 2 cents', () => {
    const one = fundingCheck(quote(28_799, [30_000]));
    expect(one).toMatchObject({ ok: true, overfundCents: 1, showOverfundInfo: false });
    const two = fundingCheck(quote(28_798, [30_000]));
    expect(two).toMatchObject({ ok: true, overfundCents: 2, showOverfundInfo: true });
    expect(two.ok && two.overfundInfo).toContain('$0.02');
  });
  it('blames fee rounding only for an overfund rounding can make: a cent per source', () => {
    const rounding = fundingCheck(quote(57_598, [30_000, 30_000]));
    expect(rounding).toMatchObject({ ok: true, overfundCents: 2, showOverfundInfo: true });
    expect(rounding.ok && rounding.overfundInfo).toBe('Your payment sources add up to $0.02 more than needed because of fee rounding. The extra stays on your new card.');
    const chosen = fundingCheck(quote(28_797, [30_000]));
    expect(chosen).toMatchObject({ ok: true, overfundCents: 3, showOverfundInfo: true });
    expect(chosen.ok && chosen.overfundInfo).not.toContain('rounding');
  });
  it('says a large overfund as it is: $200 charged on a $100 card', () => {
    const big = fundingCheck(quote(10_000, [20_000]));
    expect(big).toMatchObject({ ok: true, overfundCents: 9_190, showOverfundInfo: true });
    expect(big.ok && big.overfundInfo).toBe('Your payment sources add up to $91.90 more than needed. The extra stays on your new card; to charge less, go back to Sources and replace a source with a smaller one.');
  });
  it('refuses a source that only costs money', () => {
    expect(fundingCheck(quote(28_000, [30_000, 31]))).toEqual({ ok: false, message: FUNDING_MESSAGES.sourceTooSmall });
  });
});

const planArb = fc.constantFrom<PlanId>('free', 'premium', 'premium+');
const sourceArb = fc.record({
  kind: fc.constantFrom<SourceKind>('card', 'bnpl', 'internal'),
  provider: fc.constantFrom('visa', 'mastercard', 'amex', 'discover', 'affirm', 'klarna', 'zip', 'afterpay', 'other'),
  chargeCents: fc.integer({ min: 0, max: 6_000_000 }),
});
const quoteInputArb = fc
  .record({
    plan: planArb,
    promoActive: fc.boolean(),
    boostUsed: fc.boolean(),
    totalCents: fc.integer({ min: 1, max: 5_000_000 }),
    sources: fc.array(sourceArb, { minLength: 1, maxLength: 6 }),
    feeChoice: fc.nat(),
    bufferShare: fc.integer({ min: 0, max: 100 }),
  })
  .map(({ feeChoice, bufferShare, ...rest }): QuoteInput => ({
    ...rest,
    taxBufferCents: Math.floor((rest.totalCents * bufferShare) / 200),
    creationFeeSourceIndex: (feeChoice % (rest.sources.length + 1)) - 1,
  }));

describe('quoteCombine properties over random plans, promo, boosts and 1-6 sources', () => {
  it('totalCharged always equals card amount + all fees + rebates', () => {
    fc.assert(fc.property(quoteInputArb, (input) => {
      const q = quoteCombine(input);
      expect(q.totalChargedCents).toBe(
        q.cardAmountCents + q.productFeeCents + q.processorFeeCents + q.bnplFeeActualCents +
          q.rebateCents + q.creationFeeCents,
      );
    }), { numRuns: 1_000 });
  });

  it('no fee is negative and every figure is a safe integer', () => {
    fc.assert(fc.property(quoteInputArb, (input) => {
      const q = quoteCombine(input);
      for (const s of q.sources) {
        for (const key of ['processorFeeCents', 'productFeeCents', 'bnplFeeMaxCents', 'bnplFeeActualCents', 'rebateCents', 'creationFeeCents'] as const) {
          expect(s[key]).toBeGreaterThanOrEqual(0);
          expect(Number.isSafeInteger(s[key])).toBe(true);
        }
        expect(Number.isSafeInteger(s.netCents)).toBe(true);
        expect(s.chargedCents).toBe(s.chargeCents + s.bnplFeeMaxCents + s.creationFeeCents);
      }
      for (const [key, value] of Object.entries(q)) {
        if (typeof value === 'number') expect(Number.isSafeInteger(value), key).toBe(true);
      }
      for (const key of ['productFeeCents', 'processorFeeCents', 'bnplFeeActualCents', 'bnplFeeMaxCents', 'rebateCents', 'remainingToFundCents', 'overfundCents'] as const) {
        expect(q[key]).toBeGreaterThanOrEqual(0);
      }
    }), { numRuns: 400 });
  });

  it('the creation fee is charged exactly once: on the card or on one source', () => {
    fc.assert(fc.property(quoteInputArb, (input) => {
      const q = quoteCombine(input);
      const onSources = q.sources.reduce((t, s) => t + s.creationFeeCents, 0);
      expect(onSources + (q.creationFeeOnCard ? CREATION_FEE_CENTS : 0)).toBe(CREATION_FEE_CENTS);
      expect(q.cardAmountCents).toBe(q.netTotalCents - (q.creationFeeOnCard ? CREATION_FEE_CENTS : 0));
    }));
  });

  it('canContinue exactly when every source adds money, nets cover the total and the card is within limits', () => {
    fc.assert(fc.property(quoteInputArb, (input) => {
      const q = quoteCombine(input);
      const expected = q.sources.every((s) => s.netCents > 0) && q.netTotalCents >= q.totalCents &&
        q.cardAmountCents > 0 && q.cardAmountCents <= 5_000_000;
      expect(q.canContinue).toBe(expected);
      expect(fundingCheck(q).ok).toBe(expected);
      expect(q.remainingToFundCents - q.overfundCents).toBe(q.totalCents - q.netTotalCents);
    }));
  });

  it('funding a total with suggested charges always lets the user continue', () => {
    fc.assert(fc.property(planArb, fc.boolean(), fc.boolean(), fc.integer({ min: 20, max: 5_000_000 }),
      fc.array(fc.constantFrom<SourceKind>('card', 'bnpl', 'internal'), { minLength: 1, maxLength: 6 }),
      (plan, promoActive, boostUsed, totalCents, kinds) => {
        const ppm = quoteCombine({ ...base, plan, promoActive, boostUsed, totalCents, taxBufferCents: 0, sources: [] }).productFeePpm;
        // Split the total across the sources, then ask for the smallest charge for each share.
        const share = Math.floor(totalCents / kinds.length);
        const sources = kinds.map((kind, i) => {
          const need = i === kinds.length - 1 ? totalCents - share * (kinds.length - 1) : share;
          return { kind, provider: 'klarna', chargeCents: smallestChargeForNet(Math.max(1, need), ppm, kind) };
        });
        const q = quoteCombine({ ...base, plan, promoActive, boostUsed, totalCents, taxBufferCents: 0, sources, creationFeeSourceIndex: 0 });
        expect(q.remainingToFundCents).toBe(0);
        expect(q.canContinue).toBe(true);
      }));
  });
});
