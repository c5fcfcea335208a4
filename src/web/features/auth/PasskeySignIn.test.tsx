import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import LoginPage from './LoginPage';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';
import { profileFixture } from '../../test/fixtures';
import { PASSKEY_CANCELLED } from '../../lib/passkeys';

// The browser's WebAuthn call is the one thing faked here (Chromium's virtual authenticator drives
// it for real in tests/e2e/passkeys.spec.ts): these tests prove the page's wiring around it.
const ceremony = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ceremony);

const signedOut = { body: { signedIn: false, profile: null } };
const options = { challenge: 'c2lnbi1pbi1jaGFsbGVuZ2U', rpId: 'localhost', userVerification: 'required' };
const answer = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'AA' } };

async function passwordStep(user: ReturnType<typeof renderPage>['user']) {
  await fill(user, await screen.findByLabelText(/^Email/), 'ada@example.com');
  await fill(user, screen.getByLabelText(/^Password/), 'Sturdy-Pass-2026');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('passkeys on /login (decision 090)', () => {
  beforeEach(() => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    ceremony.startAuthentication.mockReset();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('signs in with a passkey and no e-mail or password, with the remember-me choice', async () => {
    ceremony.startAuthentication.mockResolvedValue(answer);
    const api = fakeApi({
      'GET /api/session': signedOut,
      'POST /api/auth/passkey/options': { body: options },
      'POST /api/auth/passkey': { body: profileFixture() },
    });
    const { user, router } = renderPage(<LoginPage />, { path: '/login' });
    await user.click(await screen.findByLabelText(/Remember me/));
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(ceremony.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
    expect(api.bodiesOf('POST', '/api/auth/passkey')).toEqual([{ credential: answer, rememberMe: true }]);
    expect(api.sent.some((request) => request.path === '/api/auth/login')).toBe(false);
  });

  it('a cancelled prompt says so and stays on the page', async () => {
    ceremony.startAuthentication.mockRejectedValue(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
    const api = fakeApi({ 'GET /api/session': signedOut, 'POST /api/auth/passkey/options': { body: options } });
    const { user, router } = renderPage(<LoginPage />, { path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', PASSKEY_CANCELLED);
    expect(router.state.location.pathname).toBe('/login');
    expect(api.bodiesOf('POST', '/api/auth/passkey')).toEqual([]);
  });

  it('with two-factor on, the code step offers the passkey when the account has one, and it completes the sign-in', async () => {
    ceremony.startAuthentication.mockResolvedValue(answer);
    const api = fakeApi({
      'GET /api/session': signedOut,
      'POST /api/auth/login': { body: { twoFactorRequired: true, challengeId: 'challenge-1', passkeyAvailable: true } },
      'POST /api/auth/login/two-factor/passkey/options': { body: options },
      'POST /api/auth/login/two-factor/passkey': { body: profileFixture({ twoFactorEnabled: true }) },
    });
    const { user, router } = renderPage(<LoginPage />, { path: '/login' });
    await passwordStep(user);
    await user.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.bodiesOf('POST', '/api/auth/login/two-factor/passkey/options')).toEqual([{ challengeId: 'challenge-1' }]);
    expect(api.bodiesOf('POST', '/api/auth/login/two-factor/passkey')).toEqual([{ challengeId: 'challenge-1', credential: answer }]);
  });

  it('the code step offers no passkey to an account without one', async () => {
    fakeApi({ 'GET /api/session': signedOut, 'POST /api/auth/login': { body: { twoFactorRequired: true, challengeId: 'challenge-1' } } });
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    await passwordStep(user);
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
  });
});
