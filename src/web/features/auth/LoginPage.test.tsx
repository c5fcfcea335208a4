import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import LoginPage from './LoginPage';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';
import { profileFixture } from '../../test/fixtures';

const signedOut = { body: { signedIn: false, profile: null } };

async function fillPassword(user: ReturnType<typeof renderPage>['user']) {
  await fill(user, screen.getByLabelText(/^Email/), 'ada@example.com');
  await fill(user, screen.getByLabelText(/^Password/), 'Sturdy-Pass-2026');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in (docs/rules.md#screens /login, decision 014)', () => {
  it('shows the spec messages for a missing e-mail and password, only after the fields were touched', async () => {
    fakeApi({ 'GET /api/session': signedOut });
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    expect(screen.queryByText('Email is required')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeVisible();
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription(expect.stringContaining('Email is required'));
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(expect.stringContaining('Password is required'));
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    await fill(user, screen.getByLabelText(/^Email/), 'not-an-email');
    await user.tab();
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription(expect.stringContaining('Invalid email address')));
    expect(screen.getByText('Invalid email address')).toBeVisible();
  });

  it('with two-factor on: the password step leads to the code step, a wrong code says so and clears, the right one signs in', async () => {
    let attempts = 0;
    const api = fakeApi({
      'GET /api/session': signedOut,
      'POST /api/auth/login': { body: { twoFactorRequired: true, challengeId: 'challenge-1' } },
      'POST /api/auth/login/two-factor': () => {
        attempts += 1;
        return attempts === 1
          ? { status: 401, body: { error: { code: 'invalid_two_factor_code', message: 'Invalid authentication code' } } }
          : { body: profileFixture({ twoFactorEnabled: true }) };
      },
    });
    const { user, router } = renderPage(<LoginPage />, { path: '/login' });
    await fillPassword(user);

    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
    await user.type(screen.getByLabelText(/^Authentication code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining('Invalid authentication code'));
    expect((screen.getByLabelText(/^Authentication code/) as HTMLInputElement).value).toBe('');

    await user.type(screen.getByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.bodiesOf('POST', '/api/auth/login/two-factor')).toEqual([
      { challengeId: 'challenge-1', code: '000000' },
      { challengeId: 'challenge-1', code: '123456' },
    ]);
    // The password is sent once, with the first step only.
    expect(api.bodiesOf('POST', '/api/auth/login')).toEqual([{ email: 'ada@example.com', password: 'Sturdy-Pass-2026', rememberMe: false }]);
  });

  it('offers a recovery code instead, and an expired challenge goes back to the password step with the reason', async () => {
    fakeApi({
      'GET /api/session': signedOut,
      'POST /api/auth/login': { body: { twoFactorRequired: true, challengeId: 'challenge-2' } },
      'POST /api/auth/login/two-factor': { status: 401, body: { error: { code: 'two_factor_challenge_expired', message: 'The sign-in took too long. Please sign in again.' } } },
    });
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    await fillPassword(user);
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    expect(screen.getByRole('heading', { name: 'Use a recovery code' })).toBeVisible();
    await fill(user, screen.getByLabelText(/^Recovery code/), 'ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(screen.getByRole('alert').textContent).toContain('The sign-in took too long. Please sign in again.');
  });
});
