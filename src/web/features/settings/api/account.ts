import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '../../../../contracts/me';
import { api } from '../../../lib/api';
import { sessionQueryKey } from '../../../lib/session';
import { securityActivityQueryKey } from './security-activity';

/** PUT /api/me/email: answers the updated profile, which becomes ['me']. */
export function useChangeEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; currentPassword: string }) => api<Profile>('/api/me/email', { method: 'PUT', body }),
    onSuccess: (profile) => client.setQueryData(sessionQueryKey, profile),
  });
}

/** PUT /api/me/password: every other session of the account ends; this one stays. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api<void>('/api/me/password', { method: 'PUT', body }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: sessionQueryKey }), client.invalidateQueries({ queryKey: securityActivityQueryKey })]),
  });
}

/**
 * POST /api/me/close-account (decision 165): 204 and the session cookie cleared; 403
 * reauthentication_required without a recent password; 409 while money is owed to the user.
 * The caller leaves the signed-in app on success (nothing of the account's cache is kept).
 */
export function useCloseAccount() {
  return useMutation({ mutationFn: () => api<void>('/api/me/close-account', { method: 'POST' }) });
}
