import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import type { Profile } from '../../../../contracts/me';

export const sessionQueryKey = ['me'] as const;

// The profile doubles as the session: 401 means signed out, which is a state, not an error.
export async function fetchProfile(): Promise<Profile | null> {
  try {
    return await api<Profile>('/api/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSession() {
  const query = useQuery({ queryKey: sessionQueryKey, queryFn: fetchProfile, staleTime: 60_000 });
  return { profile: query.data ?? null, isLoading: query.isPending, error: query.error, refetch: query.refetch };
}

export function useRefreshSession() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: sessionQueryKey });
}
