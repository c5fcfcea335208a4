import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import type { Profile, SessionState } from '../../contracts/me';

export const sessionQueryKey = ['me'] as const;

// The profile doubles as the session. /api/session answers 200 signed in or out, so a visitor's
// browser console shows no failed request.
export async function fetchProfile(): Promise<Profile | null> {
  return (await api<SessionState>('/api/session')).profile;
}

export function useSession() {
  const query = useQuery({ queryKey: sessionQueryKey, queryFn: fetchProfile, staleTime: 60_000 });
  return { profile: query.data ?? null, isLoading: query.isPending, error: query.error, refetch: query.refetch };
}

export function useRefreshSession() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: sessionQueryKey });
}
