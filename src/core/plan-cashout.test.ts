import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents } from './money-plan';
import { CARD_FROZEN_MESSAGE, CARD_NOT_CASHABLE_MESSAGE, planCashout, type CashoutFacts } from './plan-cashout';
import type { PayoutMethod, PlanId } from './plans';

const NOW = new Date('2026-06-15T12:00:00Z');
const PROMO_RUNNING = new Date('2026-12-01T00:00:00Z');
const card = { status: 'active', frozen: false, remainingAmountCents: 50_000 };
const facts = (over: Partial<CashoutFacts> = {}, request: Partial<CashoutFacts['request']> = {}): CashoutFacts => ({
  request: { cardId: 'card-1', amountCents: 12_345, payoutMethod: 'ach', ...request },
  plan: 'free',
  promoEnd: null,
  savedMethods: [],
  card,
  now: NOW,
  ...over,
});

describe('planCashout: the DECISIONS §2 worked example', () => {
  it('$123.45 on Free: fee $1.23, net $122.22; the journal takes it off the card and pays the net and the fee', () => {
    const plan = planCashout(facts());
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.fee).toEqual({ ratePpm: 10_000, feeCents: 123, netCents: 12_222 });
    expect(plan.journal.lines).toEqual([
      { account: { card: 'card-1' }, amountCents: -12_345 },
      { account: { system: 'payouts' }, amountCents: 12_222 },
      { account: { system: 'cashoutFeeRevenue' }, amountCents: 123 },
    ]);
    expect(plan.effects).toEqual([{ kind: 'payout', method: 'ach', amountCents: 12_222 }]);
    expect(plan.debit).toMatchObject({ cardId: 'card-1', amountCents: 12_345, statusAtZero: 'cashed_out', allowedStatuses: ['active', 'expired'], validAt: null });
  });
  it('Premium with promo: fee $0.31; Premium+ with promo: fee $0.15', () => {
    const premium = planCashout(facts({ plan: 'premium', promoEnd: PROMO_RUNNING }, { payoutMethod: 'paypal' }));
    const premiumPlus = planCashout(facts({ plan: 'premium+', promoEnd: PROMO_RUNNING }, { payoutMethod: 'cashapp' }));
    expect(premium.ok && premium.fee.feeCents).toBe(31);
    expect(premiumPlus.ok && premiumPlus.fee.feeCents).toBe(15);
  });
});

describe('planCashout refuses with the reason, in the spec order', () => {
  it('a method the plan does not allow, then one not saved', () => {
    expect(planCashout(facts({}, { payoutMethod: 'paypal' }))).toMatchObject({ ok: false, status: 403, code: 'payout_method_not_allowed', message: 'PayPal payouts are not available on the Free plan.' });
    expect(planCashout(facts({ plan: 'premium', savedMethods: ['ach'] }, { payoutMethod: 'paypal' }))).toMatchObject({ ok: false, code: 'payout_method_not_saved' });
  });
  it('a card that is empty, frozen, closed, or short', () => {
    expect(planCashout(facts({ card: { ...card, remainingAmountCents: 0 } }))).toMatchObject({ code: 'no_balance', message: 'This card has no remaining balance to cash out' });
    expect(planCashout(facts({ card: { ...card, frozen: true } }))).toMatchObject({ code: 'card_frozen', message: CARD_FROZEN_MESSAGE });
    expect(planCashout(facts({ card: { ...card, status: 'closed' } }))).toMatchObject({ code: 'card_not_cashable', message: CARD_NOT_CASHABLE_MESSAGE });
    expect(planCashout(facts({ card: { ...card, remainingAmountCents: 100 } }))).toMatchObject({ status: 400, message: 'Amount cannot exceed remaining balance ($1.00)' });
  });
  it('an expired card can still be cashed out (decision 007)', () => {
    expect(planCashout(facts({ card: { ...card, status: 'expired' } })).ok).toBe(true);
  });
  it('$0.01, which its $0.01 fee would leave at nothing', () => {
    expect(planCashout(facts({}, { amountCents: 1 }))).toMatchObject({ ok: false, status: 400, message: 'The smallest cash-out is $0.02: the fee is at least $0.01.' });
  });
});

const plans = fc.constantFrom<PlanId>('free', 'premium', 'premium+');
const methods = fc.constantFrom<PayoutMethod>('ach', 'paypal', 'cashapp');

describe('planCashout, for any facts (fast-check)', () => {
  it('every plan balances, pays out amount - fee with a fee of at least $0.01, and never leaves the card below zero', () => {
    let planned = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        plans,
        methods,
        fc.boolean(),
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.subarray<PayoutMethod>(['ach', 'paypal', 'cashapp']),
        fc.constantFrom('active', 'expired', 'closed', 'cashed_out'),
        fc.boolean(),
        (plan, method, promo, amountCents, remainingAmountCents, savedMethods, status, frozen) => {
          const result = planCashout(
            facts({ plan, promoEnd: promo ? PROMO_RUNNING : null, savedMethods, card: { status, frozen, remainingAmountCents } }, { amountCents, payoutMethod: method }),
          );
          if (!result.ok) {
            refused += 1;
            return;
          }
          planned += 1;
          expect(journalSumCents(result.journal.lines)).toBe(0);
          expect(remainingAmountCents - result.debit.amountCents).toBeGreaterThanOrEqual(0);
          expect(result.fee.feeCents).toBeGreaterThanOrEqual(1);
          expect(result.fee.feeCents + result.fee.netCents).toBe(amountCents);
          expect(result.effects[0].amountCents).toBe(result.fee.netCents);
          expect(result.effects[0].amountCents).toBeGreaterThan(0);
          expect(frozen).toBe(false);
        },
      ),
      { numRuns: 2_000 },
    );
    // Both outcomes are exercised often, so the properties above are not vacuous.
    expect(planned).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});
