import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { PublicConfig } from '../../contracts/system';
import { DEFAULT_SUPPORT_EMAIL } from './support-contact';

// GET /api/config: what the browser may know about the server (demo mode, support address,
// pay address). It changes only with a deploy, so it is fetched once per page load.

export const publicConfigQueryKey = ['config'] as const;

export function usePublicConfig() {
  const query = useQuery({
    queryKey: publicConfigQueryKey,
    queryFn: () => api<PublicConfig>('/api/config'),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return {
    config: query.data ?? null,
    /** True only once the server said so; unknown while loading or after a failure. */
    demoMode: query.data?.demoMode === true,
    supportEmail: query.data?.supportEmail ?? DEFAULT_SUPPORT_EMAIL,
    isLoading: query.isPending,
    error: query.error,
  };
}
