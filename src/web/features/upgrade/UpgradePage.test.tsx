import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { PlanView, PlansResponse, UpgradeResponse } from '../../../contracts/subscription';
import { PLAN_IDS, PLANS } from '../../../core/plans';
import UpgradePage from './UpgradePage';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';
import { profileFixture } from '../../test/fixtures';

// The upgrade page around its dialogs: payment, then the success modal, then back to the page.

const config = { body: { demoMode: true, supportEmail: 'support@payweave.example', payAddress: 'pay.payweave.example' } };

function plans(current: 'free' | 'premium'): PlansResponse {
  const rank = PLAN_IDS.indexOf(current);
  const views: PlanView[] = PLAN_IDS.map((id, index) => ({
    id,
    label: PLANS[id].label,
    name: PLANS[id].name,
    priceMonthlyCents: PLANS[id].priceMonthlyCents,
    priceYearlyCents: PLANS[id].priceYearlyCents,
    yearlySavingPpm: 0,
    monthlyCombineLimit: null,
    productFeePpm: 0,
    cashoutFeePpm: 0,
    payoutMethods: ['ach'],
    emailSupport: false,
    showsAds: id === 'free',
    features: [`${PLANS[id].name} feature`],
    current: id === current,
    upgradable: index > rank,
    firstPaymentCents: { monthly: PLANS[id].priceMonthlyCents, yearly: PLANS[id].priceYearlyCents },
  }));
  const subscription = {
    plan: current, billingCycle: current === 'free' ? null : ('monthly' as const), priceCents: current === 'free' ? 0 : 999, loyaltyMonths: current === 'free' ? 0 : 1,
    loyaltyDiscountPpm: 0, nextLoyaltyDiscountPpm: 0, nextPaymentCents: null, currentSubscriptionStart: null, periodEnd: null, nextBillingDate: null,
    cancelAtPeriodEnd: false, lastCanceledAt: null, lastPayment: null,
  };
  return { plans: views, subscription, promoActive: false, loyalty: { months: subscription.loyaltyMonths, currentDiscountPpm: 0, nextDiscountPpm: 0, stepPpm: 100_000, maxPpm: 500_000 } };
}

const payment = { id: 'pay-1', plan: 'premium' as const, billingCycle: 'monthly' as const, listPriceCents: 999, discountPpm: 0, amountCents: 999, cardBrand: 'visa', cardLast4: '1111', createdAt: '2026-11-27T10:00:00.000Z' };
const upgraded: UpgradeResponse = { success: true, message: 'Your account has been upgraded to Premium!', subscription: { ...plans('premium').subscription, lastPayment: payment }, payment, nextBillingDate: '2026-12-27T10:00:00.000Z' };

describe('upgrade page', () => {
  it('after paying, closing the success modal puts focus on the plan now current, not on the page body', async () => {
    let current: 'free' | 'premium' = 'free';
    fakeApi({
      'GET /api/config': config,
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      'GET /api/plans': () => ({ body: plans(current) }),
      'POST /api/subscription/upgrade': () => {
        current = 'premium';
        return { status: 201, body: upgraded };
      },
    });
    const { user } = renderPage(<UpgradePage />, { path: '/upgrade' });
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Premium' }));
    const pay = await screen.findByRole('dialog', { name: 'Upgrade to Premium' });
    await fill(user, within(pay).getByLabelText(/^Name on card/), 'Ada Lovelace');
    await fill(user, within(pay).getByLabelText(/^Card number/), '4111111111111111');
    await user.selectOptions(within(pay).getByLabelText(/^Expiry month/), '12');
    await user.selectOptions(within(pay).getByLabelText(/^Expiry year/), String(new Date().getFullYear() + 2));
    await user.type(within(pay).getByLabelText(/^CVV/), '123');
    await user.click(within(pay).getByRole('button', { name: 'Pay $9.99' }));

    const success = await screen.findByRole('dialog', { name: 'Upgrade successful!' });
    // The plans are read again: the button that opened the payment is now 'Not Available'.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Upgrade to Premium' })).toBeNull());
    await user.click(within(success).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Premium' })));
  });
});
