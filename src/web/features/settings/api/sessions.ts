import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignedInSession, SignedInSessionList, SignOutOthersResponse } from '../../../../contracts/sessions';
import { api } from '../../../lib/api';
import { securityActivityQueryKey } from './security-activity';

// Settings → Security → Signed-in devices (docs/decisions/164). Ending sessions needs the password
// (or a passkey) entered within 5 minutes: 403 reauthentication_required otherwise, and the panel
// asks, then tries again.

// Not under ['me']: signing in as someone else must drop it with the rest of the cache.
export const signedInSessionsQueryKey = ['signed-in-sessions'] as const;

export function useSignedInSessions() {
  return useQuery({ queryKey: signedInSessionsQueryKey, queryFn: async () => (await api<SignedInSessionList>('/api/me/sessions')).sessions });
}

/**
 * What ended leaves the list at once (so its button is gone when the dialog closes), and the list
 * is read again after any attempt: a session that had already ended drops out of it too.
 */
function useListUpdates() {
  const client = useQueryClient();
  return {
    keep: (which: (session: SignedInSession) => boolean) =>
      client.setQueryData<SignedInSession[]>(signedInSessionsQueryKey, (sessions) => sessions?.filter(which)),
    refresh: () => Promise.all([client.invalidateQueries({ queryKey: signedInSessionsQueryKey }), client.invalidateQueries({ queryKey: securityActivityQueryKey })]),
  };
}

export function useEndSession() {
  const list = useListUpdates();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => list.keep((session) => session.id !== id),
    onSettled: () => list.refresh(),
  });
}

export function useSignOutOtherSessions() {
  const list = useListUpdates();
  return useMutation({
    mutationFn: () => api<SignOutOthersResponse>('/api/me/sessions/sign-out-others', { method: 'POST' }),
    onSuccess: () => list.keep((session) => session.current),
    onSettled: () => list.refresh(),
  });
}
