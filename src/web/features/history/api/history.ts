// Completed combines for /history and /history/:id (the lead's GET /api/combines endpoints).
import { useQuery } from '@tanstack/react-query';
import type { Combine, CombineSummary } from '../../../../contracts/combines';
import { api } from '../../../lib/api';

export type HistoryRange = 'all' | '1m' | '7d';

/** Under 'combines' so a new card or a deleted draft refreshes history too. */
export function useHistory(range: HistoryRange) {
  return useQuery({
    queryKey: ['combines', 'list', 'completed', range],
    queryFn: async () => (await api<{ combines: CombineSummary[] }>(`/api/combines?status=completed&range=${range}&limit=100`)).combines,
  });
}

export function useCombine(id: string | null) {
  return useQuery({
    queryKey: ['combines', 'detail', id],
    queryFn: () => api<Combine>(`/api/combines/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

export const historyCsvUrl = (range: HistoryRange) => `/api/history.csv?range=${range}`;
