import { useQuery } from '@tanstack/react-query';
import type { SecurityActivity } from '../../../../contracts/security-activity';
import { api } from '../../../lib/api';

// Settings → Security → Recent security activity (decision 166). Not under ['me']: signing in as
// someone else must drop it with the rest of the cache. Read again whenever the panel is shown,
// and after anything on the Security tab that adds an event (ending sessions, a new password).
export const securityActivityQueryKey = ['security-activity'] as const;

export function useSecurityActivity() {
  return useQuery({
    queryKey: securityActivityQueryKey,
    queryFn: async () => (await api<SecurityActivity>('/api/me/security-activity')).events,
    staleTime: 0,
  });
}
