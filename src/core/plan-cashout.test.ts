import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents } from './money-plan';
import { CARD_FROZEN_MESSAGE, CARD_NOT_CASHABLE_MESSAGE, planCashout, type CashoutFacts, type SavedDestinations } from './plan-cashout';
import type { PayoutMethod, PlanId } from './plans';

const NOW = new Date('2026-06-15T12:00:00Z');
const PROMO_RUNNING = new Date('2026-12-01T00:00:00Z');
const card = { status: 'active', frozen: false, remainingAmountCents: 50_000, amountSpentCents: 0, last4: '4242' };
const facts = (over: Partial<CashoutFacts> = {}, request: Partial<CashoutFacts['request']> = {}): CashoutFacts => ({
  request: { cardId: 'card-1', amountCents: 12_345, payoutMethod: 'ach', ...request },
  plan: 'free',
  promoEnd: null,
  savedMethods: { ach: 'dest_ach', paypal: 'dest_paypal', cashapp: 'dest_cashapp' },
  card,
  now: NOW,
  ...over,
});

describe('planCashout: the docs/rules.md#fee-examples worked example', () => {
  it('$123.45 on Free: fee $1.23, net $122.22; the journal takes it off the card and pays the net and the fee', () => {
    const plan = planCashout(facts());
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.fee).toEqual({ ratePpm: 10_000, feeCents: 123, netCents: 12_222 });
    expect(plan.journal.lines).toEqual([
      { account: { card: 'card-1' }, amountCents: -12_345 },
      { account: { system: 'payouts' }, amountCents: 12_222 },
      { account: { system: 'cashoutFeeRevenue' }, amountCents: 123 },
    ]);
    expect(plan.effects).toEqual([{ kind: 'payout', method: 'ach', amountCents: 12_222, destination: 'dest_ach' }]);
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
    expect(planCashout(facts({ plan: 'premium', savedMethods: { ach: 'dest_ach' } }, { payoutMethod: 'paypal' }))).toMatchObject({ ok: false, code: 'payout_method_not_saved' });
  });
  it('decision 172: a method without a destination the payout provider registered, before the card is looked at', () => {
    // Saved without details (before decision 168, or by an API client): asked for them again.
    const savedWithout = planCashout(facts({ savedMethods: { ach: null }, card: { ...card, frozen: true } }));
    expect(savedWithout).toEqual({
      ok: false,
      status: 409,
      code: 'payout_method_needs_details',
      message: 'We need your ACH details again before we can pay to it. Enter them in Account Settings → Payout Methods, or on the cash-out form, then try again. Nothing was cashed out.',
    });
    // Never saved (allowed when none is, decision 008): the details come with it first.
    const neverSaved = planCashout(facts({ plan: 'premium', savedMethods: {} }, { payoutMethod: 'paypal' }));
    expect(neverSaved).toEqual({
      ok: false,
      status: 409,
      code: 'payout_method_needs_details',
      message: 'Add PayPal with its details first, in Account Settings → Payout Methods or on the cash-out form, then try again. Nothing was cashed out.',
    });
    // A saved method the plan no longer allows does not count as saved: ACH is offered, without details.
    expect(planCashout(facts({ savedMethods: { paypal: 'dest_paypal' } }))).toMatchObject({ code: 'payout_method_needs_details' });
    // Another method's destination is not this one's.
    expect(planCashout(facts({ plan: 'premium', savedMethods: { ach: 'dest_ach', paypal: null } }, { payoutMethod: 'paypal' }))).toMatchObject({ code: 'payout_method_needs_details' });
    // The plan's rule is said first: the details would not help.
    expect(planCashout(facts({ savedMethods: {} }, { payoutMethod: 'cashapp' }))).toMatchObject({ code: 'payout_method_not_allowed' });
  });
  it("the payout carries the chosen method's destination, and marks the saved method used", () => {
    const plan = planCashout(facts({ plan: 'premium+', savedMethods: { ach: 'dest_ach', cashapp: 'dest_cashapp' } }, { payoutMethod: 'cashapp' }));
    expect(plan).toMatchObject({ ok: true, marksMethodUsed: true, effects: [{ kind: 'payout', method: 'cashapp', destination: 'dest_cashapp' }] });
  });
  it('a card the user does not have is not found', () => {
    expect(planCashout(facts({ card: null }))).toMatchObject({ ok: false, status: 404, code: 'not_found', message: 'Card not found.' });
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
        fc.dictionary(methods, fc.option(fc.constantFrom('dest_1', 'dest_2'), { nil: null })),
        fc.constantFrom('active', 'expired', 'closed', 'cashed_out'),
        fc.boolean(),
        (plan, method, promo, amountCents, remainingAmountCents, savedMethods, status, frozen) => {
          const result = planCashout(
            facts({ plan, promoEnd: promo ? PROMO_RUNNING : null, savedMethods, card: { status, frozen, remainingAmountCents, amountSpentCents: 0, last4: '4242' } }, { amountCents, payoutMethod: method }),
          );
          if (!result.ok) {
            refused += 1;
            return;
          }
          planned += 1;
          expect(journalSumCents(result.journal.lines)).toBe(0);
          expect(remainingAmountCents - result.debit.amountCents).toBeGreaterThanOrEqual(0);
          // The card as the debit leaves it: original = spent + remaining still holds, and an emptied card is cashed out.
          expect(result.cardAfter.remainingAmountCents + result.cardAfter.amountSpentCents).toBe(remainingAmountCents);
          expect(result.cardAfter.status === 'cashed_out').toBe(result.cardAfter.remainingAmountCents === 0 || status === 'cashed_out');
          expect(result.fee.feeCents).toBeGreaterThanOrEqual(1);
          expect(result.fee.feeCents + result.fee.netCents).toBe(amountCents);
          expect(result.effects[0].amountCents).toBe(result.fee.netCents);
          expect(result.effects[0].amountCents).toBeGreaterThan(0);
          expect(frozen).toBe(false);
          // Decision 172: a payout only ever goes to a registered destination, the chosen method's.
          expect(result.effects[0].destination).toBe((savedMethods as SavedDestinations)[method]);
          expect(result.effects[0].destination).toBeTruthy();
        },
      ),
      { numRuns: 6_000 },
    );
    // Both outcomes are exercised often, so the properties above are not vacuous. A plan goes through
    // about 1 time in 20 (card, method, destination and amount must all allow it): 6,000 runs give
    // about 300, far from the bound whatever the seed (2,000 gave 92 to 130).
    expect(planned).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});
