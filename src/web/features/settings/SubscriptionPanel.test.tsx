import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { SubscriptionView } from '../../../contracts/subscription';
import { fakeApi, renderPage } from '../../test/render';
import { SubscriptionPanel } from './SubscriptionPanel';

// Settings → Subscription: cancelling keeps the plan to the end of the period (docs/rules.md#cancel-subscription).

const premium: SubscriptionView = {
  plan: 'premium', billingCycle: 'monthly', priceCents: 999, loyaltyMonths: 1, loyaltyDiscountPpm: 0, nextLoyaltyDiscountPpm: 100_000, nextPaymentCents: 899,
  currentSubscriptionStart: '2026-11-27T12:00:00.000Z', periodEnd: '2026-12-27T12:00:00.000Z', nextBillingDate: '2026-12-27T12:00:00.000Z',
  cancelAtPeriodEnd: false, lastCanceledAt: null, lastPayment: null,
};
const cancelled: SubscriptionView = { ...premium, loyaltyMonths: 0, nextBillingDate: null, nextPaymentCents: null, cancelAtPeriodEnd: true, lastCanceledAt: '2026-11-27T13:00:00.000Z' };

describe('Settings → Subscription', () => {
  it('after Cancel Subscription is confirmed, focus goes to the notice that says until when the plan stays', async () => {
    fakeApi({
      'GET /api/subscription': { body: premium },
      'POST /api/subscription/cancel': { body: { message: 'Your subscription has been cancelled. You keep your plan until the end of the paid period.', subscription: cancelled } },
    });
    const { user } = renderPage(<SubscriptionPanel />, { path: '/settings' });
    await user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel Subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const notice = await screen.findByText('Your subscription is cancelled');
    // The button that opened the dialog is gone (the plan is cancelled): focus is not lost to the page.
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    await waitFor(() => expect(document.activeElement?.classList.contains('subscription-cancelled')).toBe(true));
    expect(document.activeElement?.contains(notice)).toBe(true);
    // The loyalty discount resets on cancel (docs/rules.md#loyalty): said so, not as "Month 0".
    expect(screen.getByTestId('subscription-loyalty').textContent).toBe('Reset by the cancellation: a new subscription starts again at month 1');
  });

  it('a running plan shows its loyalty month and discount', async () => {
    fakeApi({ 'GET /api/subscription': { body: { ...premium, loyaltyMonths: 3, loyaltyDiscountPpm: 200_000 } } });
    renderPage(<SubscriptionPanel />, { path: '/settings' });
    expect((await screen.findByTestId('subscription-loyalty')).textContent).toBe('Month 3, 20% discount');
  });
});
