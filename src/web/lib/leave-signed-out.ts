import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { publicConfigQueryKey } from './public-config';
import { sessionQueryKey } from './session';

// Leaving the signed-in app on purpose: after Logout (docs/rules.md#screens) and after closing the account
// (decision 165). RequireAuth sees the session vanish before the navigation is done; while this
// runs it sends the user where they are going, not to /login?next=<the page they left>.
let leavingTo: string | null = null;

/** Where the user is being sent as they leave the signed-in app; null the rest of the time. */
export function leavingDestination(): string | null {
  return leavingTo;
}

/** Forgets everything cached about the user (cards, history, …) and goes to `to`. */
export function useLeaveSignedOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (to: string) => {
    leavingTo = to;
    try {
      // The public configuration can stay; nothing of the user's stays in memory.
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== publicConfigQueryKey[0] && query.queryKey[0] !== sessionQueryKey[0],
      });
      queryClient.setQueryData(sessionQueryKey, null);
      await navigate(to, { replace: true });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    } finally {
      leavingTo = null;
    }
  };
}
