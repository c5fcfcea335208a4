import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '../../../../contracts/two-factor';
import { api } from '../../../lib/api';
import { sessionQueryKey } from '../../../lib/session';
import { securityActivityQueryKey } from './security-activity';

// Settings → Security → Two-factor authentication (docs/decisions/014). Every change refreshes
// ['me'] (its twoFactorEnabled), the status (recovery codes left) and the recent activity.

// Not under ['me']: signing in as someone else must drop it with the rest of the cache.
export const twoFactorQueryKey = ['two-factor-status'] as const;

export function useTwoFactorStatus(enabled: boolean) {
  return useQuery({
    queryKey: twoFactorQueryKey,
    queryFn: () => api<TwoFactorStatus>('/api/me/two-factor'),
    enabled,
  });
}

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: sessionQueryKey, exact: true }),
      client.invalidateQueries({ queryKey: twoFactorQueryKey }),
      client.invalidateQueries({ queryKey: securityActivityQueryKey }),
    ]);
}

/** POST /api/me/two-factor/setup: 403 reauthentication_required when the password is not recent. */
export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: () => api<TwoFactorSetup>('/api/me/two-factor/setup', { method: 'POST' }) });
}

export function useReauthenticate() {
  return useMutation({ mutationFn: (password: string) => api<void>('/api/auth/reauthenticate', { method: 'POST', body: { password } }) });
}

export function useEnableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => api<RecoveryCodes>('/api/me/two-factor/enable', { method: 'POST', body: { code } }),
    onSuccess: () => refresh(),
  });
}

export function useDisableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { currentPassword: string; code: string }) => api<void>('/api/me/two-factor/disable', { method: 'POST', body }),
    onSuccess: () => refresh(),
  });
}

export function useRegenerateRecoveryCodes() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (currentPassword: string) => api<RecoveryCodes>('/api/me/two-factor/recovery-codes', { method: 'POST', body: { currentPassword } }),
    onSuccess: () => refresh(),
  });
}
