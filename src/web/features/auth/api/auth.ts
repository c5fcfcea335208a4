import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LoginResponse, loginRequest, passwordResetAccepted, registerRequest } from '../../../../contracts/auth';
import type { loginTwoFactorRequest } from '../../../../contracts/two-factor';
import type { Profile } from '../../../../contracts/me';
import { api } from '../../../lib/api';
import { answerPasskeyRequest } from '../../../lib/passkeys';
import { publicConfigQueryKey } from '../../../lib/public-config';
import { sessionQueryKey } from '../../../lib/session';

// The account calls of the sign-in, register and reset pages. Signing in or up replaces the
// session: whatever was cached for a previous user is dropped, and ['me'] becomes the new profile.

type LoginBody = z.input<typeof loginRequest>;
type LoginTwoFactorBody = z.input<typeof loginTwoFactorRequest>;
type RegisterBody = z.input<typeof registerRequest>;
type ResetAccepted = z.infer<typeof passwordResetAccepted>;

function startSession(client: QueryClient, profile: Profile) {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== publicConfigQueryKey[0] && query.queryKey[0] !== sessionQueryKey[0] });
  client.setQueryData(sessionQueryKey, profile);
  void client.invalidateQueries({ queryKey: sessionQueryKey });
}

/** The password step: a profile (signed in), or with two-factor sign-in on, a challenge for the code. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => api<LoginResponse>('/api/auth/login', { method: 'POST', body }),
    onSuccess: (result) => {
      if (!('twoFactorRequired' in result)) startSession(client, result);
    },
  });
}

/** The second step: the challenge of the password step and a code from the app or a recovery code. */
export function useLoginTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginTwoFactorBody) => api<Profile>('/api/auth/login/two-factor', { method: 'POST', body }),
    onSuccess: (profile) => startSession(client, profile),
  });
}

/** Sign in with a passkey, no e-mail or password (docs/decisions/090): options, the device, the answer. */
export function usePasskeySignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ rememberMe }: { rememberMe: boolean }) => {
      const credential = await answerPasskeyRequest('/api/auth/passkey/options');
      return api<Profile>('/api/auth/passkey', { method: 'POST', body: { credential, rememberMe } });
    },
    onSuccess: (profile) => startSession(client, profile),
  });
}

/** The second step with a passkey instead of a code. */
export function usePasskeySecondFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ challengeId }: { challengeId: string }) => {
      const credential = await answerPasskeyRequest('/api/auth/login/two-factor/passkey/options', { challengeId });
      return api<Profile>('/api/auth/login/two-factor/passkey', { method: 'POST', body: { challengeId, credential } });
    },
    onSuccess: (profile) => startSession(client, profile),
  });
}

export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) => api<Profile>('/api/auth/register', { method: 'POST', body }),
    onSuccess: (profile) => startSession(client, profile),
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: { email: string }) => api<ResetAccepted>('/api/auth/password-reset', { method: 'POST', body }),
  });
}

export function useConfirmPasswordReset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => api<void>('/api/auth/password-reset/confirm', { method: 'POST', body }),
    // Every session of the account has ended, possibly this browser's own.
    onSuccess: () => client.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}

/**
 * Where to go after signing in: the `next` page when it is a path of this site, else /dashboard.
 * Anything that could leave the site ('//evil.example', 'https://…', '/\\evil') is ignored.
 */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/dashboard';
  try {
    const base = 'http://payweave.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return '/dashboard';
    const path = `${url.pathname}${url.search}${url.hash}`;
    // Back to an account screen would only show the form again.
    if (/^\/(login|register|reset-password)(\/|$|\?)/.test(path)) return '/dashboard';
    return path;
  } catch {
    return '/dashboard';
  }
}

/** The e-mailed link after the daily cap of wrong two-factor codes (decision 083). */
export function useUnlockTwoFactor() {
  return useMutation({
    mutationFn: (body: { token: string }) => api<{ message: string }>('/api/auth/two-factor/unlock', { method: 'POST', body }),
  });
}
