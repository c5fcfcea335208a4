import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { sessionQueryKey } from '../../lib/session';
import { publicConfigQueryKey } from '../../lib/public-config';
import { useToast } from '../../ui/toast';

// Set while a logout is finishing, so that RequireAuth, which sees the session vanish before the
// navigation to /login is done, sends the user to plain /login and not to /login?next=<page>.
let loggingOut = false;
export function isLoggingOut(): boolean {
  return loggingOut;
}

/**
 * Logout for both shells (spec §2): POST /api/auth/logout, then 'Successfully logged out' and
 * /login; on failure 'Error logging out' and the user stays signed in.
 * (A plain async function rather than useMutation: the shells are in the first-load bundle and
 * this keeps TanStack's mutation machinery in the chunks of the pages that need it.)
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [isPending, setPending] = useState(false);

  async function logout() {
    if (isPending) return;
    setPending(true);
    try {
      await api<void>('/api/auth/logout', { method: 'POST' });
    } catch {
      setPending(false);
      toast.error('Error logging out');
      return;
    }
    loggingOut = true;
    try {
      // Forget everything cached about the user (cards, history, …) so nothing of theirs stays in
      // memory; the public configuration can stay.
      queryClient.removeQueries({
        predicate: (query) =>
          query.queryKey[0] !== publicConfigQueryKey[0] && query.queryKey[0] !== sessionQueryKey[0],
      });
      queryClient.setQueryData(sessionQueryKey, null);
      toast.success('Successfully logged out');
      await navigate('/login', { replace: true });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    } finally {
      loggingOut = false;
      setPending(false);
    }
  }

  return { logout: () => void logout(), isPending };
}
