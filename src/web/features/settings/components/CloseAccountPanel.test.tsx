import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ACCOUNT_CLOSURE_MESSAGES } from '../../../../core/account-closure';
import { sessionQueryKey } from '../../../lib/session';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { ACCOUNT_CLOSED_TOAST, CloseAccountPanel } from './CloseAccountPanel';

const reauthRequired = { status: 403, body: { error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } } };
const passkeys = { 'GET /api/me/passkeys': { body: { passkeys: [] } } };

async function openConfirmation(user: ReturnType<typeof renderPage>['user']) {
  await user.click(screen.getByRole('button', { name: 'Close account' }));
  return screen.findByRole('dialog', { name: 'Close your account?' });
}

describe('Settings → Profile → Close account (decision 165)', () => {
  it('closes after a confirmation and the password, forgets the account, says so and goes to the landing page', async () => {
    let posts = 0;
    const api = fakeApi({
      ...passkeys,
      'POST /api/me/close-account': () => (++posts === 1 ? reauthRequired : { status: 204 }),
      'POST /api/auth/reauthenticate': { status: 204 },
    });
    const { user, router, queryClient } = renderPage(<CloseAccountPanel />, { path: '/settings' });
    queryClient.setQueryData(sessionQueryKey, { id: 'someone' });
    queryClient.setQueryData(['cards'], [{ id: 'card' }]);

    const confirm = await openConfirmation(user);
    expect(confirm.textContent).toContain('You cannot reopen it yourself.');
    // Cancel backs out, with nothing sent, and focus is back on the button that opened the dialog.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent.filter((request) => request.method === 'POST')).toEqual([]);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close account' })));

    await user.click(within(await openConfirmation(user)).getByRole('button', { name: 'Close my account' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(reauth.textContent).toContain('before closing your account');
    await fill(user, within(reauth).getByLabelText(/^Password/), 'Sturdy-Pass-2026');
    await user.click(within(reauth).getByRole('button', { name: 'Continue' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(posts).toBe(2);
    expect(await screen.findByText(ACCOUNT_CLOSED_TOAST)).toBeVisible();
    expect(queryClient.getQueryData(['cards'])).toBeUndefined();
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
  });

  it('when money is still owed, says how much and where to go first, and stays', async () => {
    fakeApi({
      ...passkeys,
      'POST /api/me/close-account': { status: 409, body: { error: { code: 'account_has_balance', message: ACCOUNT_CLOSURE_MESSAGES.balance(1_234) } } },
    });
    const { user, router } = renderPage(<CloseAccountPanel />, { path: '/settings' });
    await user.click(within(await openConfirmation(user)).getByRole('button', { name: 'Close my account' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your cards still hold $12.34. Cash it out or spend it before you close your account.');
    expect(within(alert).getByRole('link', { name: 'Go to Cash Out' }).getAttribute('href')).toBe('/cashout');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/settings');
    // Focus is on the refusal (read out, and the link is the next stop), not lost to the page's top.
    await waitFor(() => expect(document.activeElement).toBe(alert.parentElement));
  });

  it('a refusal after the password was asked for closes the dialog and puts focus on what to do first', async () => {
    let posts = 0;
    fakeApi({
      ...passkeys,
      'POST /api/me/close-account': () =>
        ++posts === 1 ? reauthRequired : { status: 409, body: { error: { code: 'account_has_balance', message: ACCOUNT_CLOSURE_MESSAGES.balance(1_234) } } },
      'POST /api/auth/reauthenticate': { status: 204 },
    });
    const { user } = renderPage(<CloseAccountPanel />, { path: '/settings' });
    await user.click(within(await openConfirmation(user)).getByRole('button', { name: 'Close my account' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await fill(user, within(reauth).getByLabelText(/^Password/), 'Sturdy-Pass-2026');
    await user.keyboard('{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your cards still hold $12.34.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(alert.parentElement));
    expect(posts).toBe(2);
  });

  it('when a rebate waits for a payout method, links to Payout Methods', async () => {
    fakeApi({
      ...passkeys,
      'POST /api/me/close-account': { status: 409, body: { error: { code: 'rebates_pending', message: ACCOUNT_CLOSURE_MESSAGES.rebates(975) } } },
    });
    const { user } = renderPage(<CloseAccountPanel />, { path: '/settings' });
    await user.click(within(await openConfirmation(user)).getByRole('button', { name: 'Close my account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('$9.75 of buy-now-pay-later rebates is waiting to be paid to you.');
    expect(within(alert).getByRole('link', { name: 'Go to Payout Methods' }).getAttribute('href')).toBe('/settings?tab=payout-methods');
  });

  it('when only cents no one can cash out are left, links to support, not to Cash Out', async () => {
    fakeApi({
      ...passkeys,
      'POST /api/me/close-account': { status: 409, body: { error: { code: 'balance_below_cashout', message: ACCOUNT_CLOSURE_MESSAGES.belowCashout(1) } } },
    });
    const { user } = renderPage(<CloseAccountPanel />, { path: '/settings' });
    await user.click(within(await openConfirmation(user)).getByRole('button', { name: 'Close my account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('less than the smallest cash-out ($0.02). Contact support to have it paid to you');
    expect(within(alert).getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/support');
    expect(within(alert).queryByRole('link', { name: 'Go to Cash Out' })).toBeNull();
  });
});
