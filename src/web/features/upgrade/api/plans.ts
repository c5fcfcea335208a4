// Plans and the upgrade (GET /api/plans, POST /api/subscription/upgrade). An upgrade changes the
// profile (plan label, payout methods, fees), so the session and every plan-dependent view refresh.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlansResponse, UpgradeRequest, UpgradeResponse } from '../../../../contracts/subscription';
import { api } from '../../../lib/api';

export const plansQueryKey = ['plans'] as const;

export function usePlans() {
  return useQuery({ queryKey: plansQueryKey, queryFn: () => api<PlansResponse>('/api/plans') });
}

export function useUpgrade() {
  const client = useQueryClient();
  return useMutation({
    // One key per submitted payment form: a network retry cannot charge twice.
    mutationFn: ({ idempotencyKey, ...body }: UpgradeRequest & { idempotencyKey: string }) =>
      api<UpgradeResponse>('/api/subscription/upgrade', { method: 'POST', body, idempotencyKey }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: plansQueryKey });
      void client.invalidateQueries({ queryKey: ['subscription'] });
      void client.invalidateQueries({ queryKey: ['payout-methods'] });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      void client.invalidateQueries({ queryKey: ['me'] });
    },
  });
}
