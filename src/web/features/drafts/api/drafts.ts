// Saved combines (status incomplete): the list of /resume-combine and deleting one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { CombineSummary } from '../../../../contracts/combines';

// Every combine list starts with 'combines' so the wizard's saves and completions refresh it.
export const draftsQueryKey = ['combines', 'list', 'incomplete'] as const;

export async function fetchDrafts(): Promise<CombineSummary[]> {
  const answer = await api<{ combines: CombineSummary[] }>('/api/combines?status=incomplete');
  return answer.combines;
}

export const deleteDraft = (id: string) => api<void>(`/api/combines/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Saved combines, newest save first (the server orders them; sorted again so the page never depends on it). */
export function useDrafts() {
  return useQuery({
    queryKey: draftsQueryKey,
    queryFn: async () => {
      const drafts = await fetchDrafts();
      return [...drafts].sort((a, b) => savedTime(b) - savedTime(a));
    },
  });
}

function savedTime(draft: CombineSummary): number {
  return new Date(draft.savedAt ?? draft.createdAt).getTime();
}

export function useDeleteDraft() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteDraft,
    onSuccess: (_data, id) => {
      client.setQueryData<CombineSummary[]>(draftsQueryKey, (list) => list?.filter((draft) => draft.id !== id));
      void client.invalidateQueries({ queryKey: ['combines'] });
    },
  });
}
