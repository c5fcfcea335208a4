import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import UnlockTwoFactorPage from './UnlockTwoFactorPage';
import { fakeApi, renderPage } from '../../test/render';

const TOKEN = 'A'.repeat(43);

describe('the unlock link of the two-factor codes e-mail (decision 083)', () => {
  it('opening the page unlocks nothing; the button does, and says so', async () => {
    const api = fakeApi({ 'POST /api/auth/two-factor/unlock': { body: { message: 'Codes from your authenticator app work again.' } } });
    const { user } = renderPage(<UnlockTwoFactorPage />, { path: `/unlock-two-factor?token=${TOKEN}` });
    expect(await screen.findByRole('heading', { name: 'Unlock two-factor codes' })).toBeVisible();
    expect(api.sent.filter((r) => r.path === '/api/auth/two-factor/unlock')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Unlock two-factor codes' }));
    expect(await screen.findByRole('heading', { name: 'Two-factor codes unlocked' })).toBeVisible();
    expect(screen.getByText(/Codes from your authenticator app work again\./)).toBeVisible();
    expect(api.sent.find((r) => r.path === '/api/auth/two-factor/unlock')?.body).toEqual({ token: TOKEN });
  });

  it('a used or expired link says so and offers sign-in', async () => {
    const message = 'This unlock link is invalid or has expired. Sign in with a recovery code, or sign in again with a code from your app to get a new link.';
    fakeApi({ 'POST /api/auth/two-factor/unlock': { status: 400, body: { error: { code: 'invalid_token', message } } } });
    const { user } = renderPage(<UnlockTwoFactorPage />, { path: `/unlock-two-factor?token=${TOKEN}` });
    await user.click(await screen.findByRole('button', { name: 'Unlock two-factor codes' }));
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeVisible();
    expect(screen.getByText(message)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
  });

  it('a link without a token does not offer the button', async () => {
    fakeApi({});
    renderPage(<UnlockTwoFactorPage />, { path: '/unlock-two-factor' });
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Unlock two-factor codes' })).toBeNull();
  });
});
