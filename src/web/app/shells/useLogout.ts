import { useState } from 'react';
import { api } from '../../lib/api';
import { useLeaveSignedOut } from '../../lib/leave-signed-out';
import { useSingleFlight } from '../../lib/use-single-flight';
import { useToast } from '../../ui/toast';

/**
 * Logout for both shells (docs/rules.md#screens): POST /api/auth/logout, then 'Successfully logged out' and
 * /login; on failure 'Error logging out' and the user stays signed in.
 * (A plain async function rather than useMutation: the shells are in the first-load bundle and
 * this keeps TanStack's mutation machinery in the chunks of the pages that need it.)
 */
export function useLogout() {
  const leave = useLeaveSignedOut();
  const toast = useToast();
  const [isPending, setPending] = useState(false);
  // One at a time: a fast double click lands before the busy re-render (two toasts).
  const logout = useSingleFlight(async () => {
    setPending(true);
    try {
      try {
        await api<void>('/api/auth/logout', { method: 'POST' });
      } catch {
        toast.error('Error logging out');
        return;
      }
      toast.success('Successfully logged out');
      await leave('/login');
    } finally {
      setPending(false);
    }
  });

  return { logout: () => void logout(), isPending };
}
