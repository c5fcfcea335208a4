import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents, type CardFacts } from './money-plan';
import { planCompletion, notADraftRefusal, type CompletionFacts, type CompletionPlan, type CompletionSource } from './plan-completion';
import type { PlanId } from './plans';
import { quoteCombine } from './quote';
import { completionQuoteInput } from './plan-completion';

const NOW = new Date('2026-06-15T12:00:00Z');
const LATER = new Date('2027-01-01T00:00:00Z');
const EARLIER = new Date('2026-06-01T00:00:00Z');

let nextId = 0;
const id = (prefix: string) => `${prefix}-${(nextId += 1)}`;

function cardSource(chargeCents: number, provider = 'visa'): CompletionSource {
  return { id: id('source'), type: 'credit', provider, chargeCents, sourceCardId: null, authorizationId: id('auth'), bnplTransactionId: null, bnplCardToken: null };
}
function bnplSource(chargeCents: number, provider = 'klarna'): CompletionSource {
  return { id: id('source'), type: 'bnpl', provider, chargeCents, sourceCardId: null, authorizationId: null, bnplTransactionId: id('bnpl'), bnplCardToken: 'tok' };
}
function internalSource(chargeCents: number, cardId: string): CompletionSource {
  return { id: id('source'), type: 'internal', provider: 'payweave', chargeCents, sourceCardId: cardId, authorizationId: null, bnplTransactionId: null, bnplCardToken: null };
}
function ownCard(remainingAmountCents: number, over: Partial<CardFacts> = {}): CardFacts {
  return { id: id('card'), status: 'active', frozen: false, validUntil: LATER, remainingAmountCents, last4: '4242', ...over };
}

/** Facts whose reviewed figures are the ones the facts give (as a client that quoted them sends). */
function facts(totalAmountCents: number, sources: CompletionSource[], over: Partial<CompletionFacts> = {}): CompletionFacts {
  const base: CompletionFacts = {
    now: NOW,
    combine: { id: 'combine-1', status: 'in_progress', totalAmountCents, taxBufferCents: 0, createdAt: NOW },
    sources,
    sourceCards: [],
    user: { plan: 'free', boostsAvailable: 0, boostsUsed: 0, combineTotal: 0, promoEnd: null, hasPromo: false },
    completedThisMonth: 0,
    promoSpotsLeft: 0,
    choices: { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' },
    expected: { cardAmountCents: 0, totalChargedCents: 0, productFeeCents: 0 },
    newCard: { id: 'new-card', last4: '1111' },
    rebatePayout: null,
    ...over,
  };
  const { promoClaim: _claim, ...input } = completionQuoteInput(base, base.choices.useBoost && base.user.boostsAvailable > 0 && base.user.boostsUsed < 3, base.choices.creationFeeSourceIdx);
  const quote = quoteCombine(input);
  return { ...base, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents }, ...over };
}

function mustPlan(result: ReturnType<typeof planCompletion>): CompletionPlan {
  if (!result.ok) throw new Error(`refused: ${result.code} ${result.message}`);
  return result;
}

describe('planCompletion: the docs/rules.md#fee-examples worked examples, inside a completion', () => {
  it('a card source charged $300.00: processor $9.00, product $3.00, net $288.00; the card holds it less the creation fee', () => {
    const plan = mustPlan(planCompletion(facts(28_800, [cardSource(30_000)])));
    expect(plan.quote.sources[0]).toMatchObject({ processorFeeCents: 900, productFeeCents: 300, netCents: 28_800 });
    expect(plan.card.originalAmountCents).toBe(28_790);
    expect(plan.effects).toEqual([{ kind: 'capture', authorizationId: expect.any(String), amountCents: 30_000 }]);
    expect(journalSumCents(plan.journal.lines)).toBe(0);
    expect(plan.journal.lines).toEqual(
      expect.arrayContaining([
        { account: { system: 'fundingSources' }, amountCents: -30_000 },
        { account: { card: 'new-card' }, amountCents: 28_790 },
        { account: { system: 'processorFees' }, amountCents: 900 },
        { account: { system: 'productFeeRevenue' }, amountCents: 300 },
        { account: { system: 'creationFeeRevenue' }, amountCents: 10 },
      ]),
    );
  });
  it('Klarna charged $150.00: processor $4.65, product $1.50, net $143.85; max $15.00, actual $5.25, rebate $9.75; one-time card $165.00', () => {
    const plan = mustPlan(planCompletion(facts(14_385, [bnplSource(15_000)])));
    expect(plan.quote.sources[0]).toMatchObject({ processorFeeCents: 465, productFeeCents: 150, netCents: 14_385, bnplFeeMaxCents: 1_500, bnplFeeActualCents: 525, rebateCents: 975, oneTimeCardChargeCents: 16_500 });
    expect(plan.rebates).toEqual([expect.objectContaining({ bnplFeeMaxCents: 1_500, bnplFeeActualCents: 525, rebateAmountCents: 975, paid: null })]);
    expect(plan.effects.map((e) => e.amountCents)).toEqual([16_500]);
    expect(journalSumCents(plan.journal.lines)).toBe(0);
  });
  it('the $9.75 rebate is paid at once to a preferred payout method with a registered destination (docs/rules.md#bnpl)', () => {
    const plan = mustPlan(planCompletion(facts(14_385, [bnplSource(15_000)], { rebatePayout: { method: 'paypal', destination: 'dest_pp' } })));
    expect(plan.rebates[0]!.paid).toEqual({
      method: 'paypal',
      destination: 'dest_pp',
      journal: {
        kind: 'rebate_payout',
        memo: 'BNPL rebate to paypal',
        lines: [
          { account: { system: 'rebatesPayable' }, amountCents: -975 },
          { account: { system: 'payouts' }, amountCents: 975 },
        ],
      },
    });
  });
  it('the suggested charge for $118.15 is $123.25 (processor $3.87, product $1.23)', () => {
    const plan = mustPlan(planCompletion(facts(11_815, [cardSource(12_325)])));
    expect(plan.quote.sources[0]).toMatchObject({ processorFeeCents: 387, productFeeCents: 123, netCents: 11_815 });
  });
});

// Decision 167: the history says a combine got the launch promo's 50% only when it halved a fee.
describe('planCompletion: whether the launch promo halved the product fee', () => {
  const running = { promoEnd: LATER, hasPromo: true };
  const halved = (over: Partial<CompletionFacts>) => mustPlan(planCompletion(facts(100_000, [cardSource(110_000)], over)));
  it('while the promo runs, and for the combine that claims a spot', () => {
    expect(halved({ user: { plan: 'free', boostsAvailable: 0, boostsUsed: 0, combineTotal: 0, ...running } })).toMatchObject({ promoApplies: true, promoHalvedFee: true, claimsPromoSpot: false });
    expect(halved({ promoSpotsLeft: 1 })).toMatchObject({ promoApplies: true, promoHalvedFee: true, claimsPromoSpot: true });
  });
  it('not when a boost waived the fee or the plan has none (Premium+), though the promo runs; not without it', () => {
    expect(halved({ user: { plan: 'free', boostsAvailable: 1, boostsUsed: 0, combineTotal: 3, ...running }, choices: { useBoost: true, creationFeeSourceIdx: -1, cardType: 'general' } })).toMatchObject({ boostUsed: true, promoApplies: true, promoHalvedFee: false });
    expect(halved({ user: { plan: 'premium+', boostsAvailable: 0, boostsUsed: 0, combineTotal: 0, ...running } })).toMatchObject({ promoApplies: true, promoHalvedFee: false });
    expect(halved({ user: { plan: 'premium', boostsAvailable: 0, boostsUsed: 0, combineTotal: 0, promoEnd: EARLIER, hasPromo: true } })).toMatchObject({ promoApplies: false, promoHalvedFee: false });
  });
});

describe('planCompletion refuses, charging nothing', () => {
  it('a combine that is not a draft', () => {
    expect(planCompletion(facts(100, [cardSource(20_000)], { combine: { id: 'c', status: 'completed', totalAmountCents: 100, taxBufferCents: 0, createdAt: NOW } }))).toMatchObject({ code: 'already_completed', status: 409 });
    expect(planCompletion(facts(100, [cardSource(20_000)], { combine: { id: 'c', status: 'failed', totalAmountCents: 100, taxBufferCents: 0, createdAt: NOW } }))).toMatchObject({ code: 'not_a_draft', status: 409 });
  });
  it('over the monthly limit, a BNPL source without its one-time card, a boost that cannot be used', () => {
    expect(planCompletion(facts(100, [cardSource(20_000)], { completedThisMonth: 3 }))).toMatchObject({ code: 'limit_reached', status: 403 });
    expect(planCompletion(facts(100, [{ ...bnplSource(20_000), bnplCardToken: null }]))).toMatchObject({ status: 400, message: 'Please enter the one-time card from your BNPL provider before creating the card.' });
    expect(planCompletion(facts(100, [cardSource(20_000)], { choices: { useBoost: true, creationFeeSourceIdx: -1, cardType: 'general' } }))).toMatchObject({ code: 'boost_unavailable' });
  });
  it('figures other than the reviewed ones: quote_changed', () => {
    const f = facts(28_800, [cardSource(30_000)]);
    expect(planCompletion({ ...f, expected: { ...f.expected, productFeeCents: 150 } })).toMatchObject({ code: 'quote_changed', status: 409 });
  });
  it('sources whose nets no longer cover the total: underfunded', () => {
    expect(planCompletion(facts(30_000, [cardSource(30_000)]))).toMatchObject({ code: 'underfunded', message: 'The payment sources after fees only add up to $288.00 (needed: $300.00). Please add more.' });
  });
  it('a card used as a source that is frozen, expired by date or by status, emptied, or gone (docs/rules.md#card-expiry)', () => {
    const refusalFor = (card: CardFacts | null) => {
      const cardId = card?.id ?? 'gone';
      return planCompletion(facts(9_000, [internalSource(5_000, cardId), cardSource(5_000)], { sourceCards: card ? [card] : [] }));
    };
    expect(refusalFor(ownCard(10_000, { frozen: true }))).toMatchObject({ code: 'card_frozen', message: 'The card •••• 4242 used as a source is frozen. Unfreeze it to use it as a source.' });
    expect(refusalFor(ownCard(10_000, { validUntil: NOW }))).toMatchObject({ code: 'source_unavailable', message: 'The card •••• 4242 used as a source has expired, so it can no longer be used as a source.' });
    expect(refusalFor(ownCard(10_000, { status: 'expired' }))).toMatchObject({ code: 'source_unavailable' });
    expect(refusalFor(ownCard(4_999))).toMatchObject({ code: 'source_unavailable', message: 'The card •••• 4242 used as a source holds $49.99, less than the $50.00 it is charged.' });
    expect(refusalFor(ownCard(0, { status: 'cashed_out' }))).toMatchObject({ code: 'source_unavailable' });
    expect(refusalFor(null)).toMatchObject({ code: 'source_unavailable' });
    expect(refusalFor(ownCard(10_000)).ok).toBe(true);
  });
  it('one card used twice is charged once for both, and refused when it cannot cover both', () => {
    const card = ownCard(8_000);
    const sources = [internalSource(5_000, card.id), internalSource(5_000, card.id)];
    expect(planCompletion(facts(9_000, sources, { sourceCards: [card] }))).toMatchObject({ code: 'source_unavailable' });
    const plan = mustPlan(planCompletion(facts(9_000, sources, { sourceCards: [{ ...card, remainingAmountCents: 10_000 }] })));
    expect(plan.debits).toEqual([{ cardId: card.id, amountCents: 10_000, statusAtZero: null, allowedStatuses: ['active'], validAt: NOW }]);
  });
});

describe('notADraftRefusal: a combine processing, completed or failed is not re-quoted (docs/rules.md#review)', () => {
  it('refuses those and allows a draft', () => {
    expect(notADraftRefusal('in_progress', 'quote')).toBeNull();
    expect(notADraftRefusal('incomplete', 'quote')).toBeNull();
    for (const status of ['processing', 'completed', 'failed']) expect(notADraftRefusal(status, 'quote')).toMatchObject({ status: 409, code: 'not_a_draft' });
  });
});

// The fee model of docs/rules.md#fee-examples, written again independently: round half up in integer math.
const roundHalfUp = (cents: number, ppm: number) => Number((BigInt(cents) * BigInt(ppm) * 2n + 1_000_000n) / 2_000_000n);
const PLAN_RATE: Record<PlanId, number> = { free: 10_000, premium: 5_000, 'premium+': 0 };
const BNPL_RATE: Record<string, number> = { affirm: 40_000, klarna: 35_000, zip: 30_000, afterpay: 45_000 };

const sourceArb = fc.oneof(
  fc.record({ kind: fc.constant('card' as const), charge: fc.integer({ min: 1, max: 2_000_000 }) }),
  fc.record({ kind: fc.constant('bnpl' as const), charge: fc.integer({ min: 1, max: 2_000_000 }), provider: fc.constantFrom('affirm', 'klarna', 'zip', 'afterpay') }),
  fc.record({
    kind: fc.constant('internal' as const),
    charge: fc.integer({ min: 1, max: 2_000_000 }),
    balance: fc.integer({ min: 0, max: 2_500_000 }),
    frozen: fc.boolean(),
    status: fc.constantFrom('active', 'active', 'active', 'expired', 'cashed_out'),
    validDays: fc.integer({ min: -5, max: 365 }),
  }),
);

describe('planCompletion, for any combine (fast-check)', () => {
  it('every plan balances, debits no card below zero, charges each source by the docs/rules.md#fee-examples model, and captures what it charges outside', () => {
    let planned = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.array(sourceArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<PlanId>('free', 'premium', 'premium+'),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: -1, max: 3 }),
        fc.integer({ min: 0, max: 100 }),
        fc.boolean(),
        (specs, plan, promo, useBoost, feeIndex, shortfallPercent, payoutRegistered) => {
          const cards: CardFacts[] = [];
          const sources = specs.map((spec) => {
            if (spec.kind === 'card') return cardSource(spec.charge);
            if (spec.kind === 'bnpl') return bnplSource(spec.charge, spec.provider);
            const card = ownCard(spec.balance, { frozen: spec.frozen, status: spec.status, validUntil: new Date(NOW.getTime() + spec.validDays * 86_400_000) });
            cards.push(card);
            return internalSource(spec.charge, card.id);
          });
          const over: Partial<CompletionFacts> = {
            sourceCards: cards,
            user: { plan, boostsAvailable: 1, boostsUsed: 0, combineTotal: 2, promoEnd: promo ? LATER : EARLIER, hasPromo: promo },
            choices: { useBoost, creationFeeSourceIdx: Math.min(feeIndex, sources.length - 1), cardType: 'general' },
            rebatePayout: payoutRegistered ? { method: 'ach', destination: 'dest_ach' } : null,
          };
          // A total the nets cover, or not quite (shortfall): the planner must refuse the latter.
          const probe = facts(1, sources, over);
          const netTotal = quoteCombine({ ...completionQuoteInput(probe, useBoost, over.choices!.creationFeeSourceIdx), totalCents: 0, taxBufferCents: 0 }).netTotalCents;
          const total = Math.max(1, Math.floor((netTotal * (100 + (shortfallPercent > 90 ? 1 : 0))) / 100));
          const result = planCompletion(facts(total, sources, over));
          if (!result.ok) {
            refused += 1;
            return;
          }
          planned += 1;

          expect(journalSumCents(result.journal.lines)).toBe(0);
          expect(result.card.originalAmountCents).toBeGreaterThan(0);
          for (const debit of result.debits) {
            const card = cards.find((c) => c.id === debit.cardId)!;
            expect(card.remainingAmountCents - debit.amountCents).toBeGreaterThanOrEqual(0);
            expect(card.frozen).toBe(false);
            expect(card.status).toBe('active');
            expect(card.validUntil.getTime()).toBeGreaterThan(NOW.getTime());
          }
          const rate = useBoost ? 0 : promo ? PLAN_RATE[plan] / 2 : PLAN_RATE[plan];
          for (const [index, spec] of specs.entries()) {
            const q = result.quote.sources[index]!;
            expect(q.productFeeCents).toBe(roundHalfUp(spec.charge, rate));
            expect(q.processorFeeCents).toBe(spec.kind === 'internal' ? 0 : roundHalfUp(spec.charge, 29_000) + 30);
            if (spec.kind === 'bnpl') {
              expect(q.bnplFeeMaxCents).toBe(roundHalfUp(spec.charge, 100_000));
              expect(q.bnplFeeActualCents).toBe(roundHalfUp(spec.charge, BNPL_RATE[spec.provider]!));
              expect(q.rebateCents).toBe(q.bnplFeeMaxCents - q.bnplFeeActualCents);
            }
            expect(q.netCents).toBe(spec.charge - q.processorFeeCents - q.productFeeCents);
          }
          const captured = result.effects.reduce((sum, e) => sum + e.amountCents, 0);
          const debited = result.debits.reduce((sum, d) => sum + d.amountCents, 0);
          expect(captured + debited).toBe(result.quote.totalChargedCents);
          expect(result.quote.netTotalCents).toBeGreaterThanOrEqual(total);
          // One capture per hold, one rebate per BNPL source; each rebate paid at once only to a
          // registered destination, with a balanced journal when money moves.
          expect(result.effects).toHaveLength(specs.filter((s) => s.kind !== 'internal').length);
          expect(result.rebates).toHaveLength(specs.filter((s) => s.kind === 'bnpl').length);
          for (const rebate of result.rebates) {
            expect(rebate.paid === null).toBe(!payoutRegistered);
            if (rebate.paid?.journal) expect(journalSumCents(rebate.paid.journal.lines)).toBe(0);
            expect(rebate.paid !== null && rebate.paid.journal === null).toBe(rebate.paid !== null && rebate.rebateAmountCents === 0);
          }
        },
      ),
      { numRuns: 1_000 },
    );
    // Both outcomes are exercised often, so the properties above are not vacuous.
    expect(planned).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});
