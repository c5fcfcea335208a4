// Settings → Payout Methods: GET/POST /api/payout-methods, DELETE /api/payout-methods/:method,
// PUT /api/payout-methods/preferred. A change also changes the profile (['me']) and may pay
// pending BNPL rebates, which the history shows.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayoutMethod } from '../../../../core/plans';
import type { PayoutMethodChange, PayoutMethodsView } from '../../../../contracts/payout-methods';
import { api } from '../../../lib/api';
import { sessionQueryKey } from '../../../lib/session';

export const payoutMethodsQueryKey = ['payout-methods'] as const;

export function usePayoutMethods() {
  return useQuery({ queryKey: payoutMethodsQueryKey, queryFn: () => api<PayoutMethodsView>('/api/payout-methods') });
}

// `detail` and, for ACH, `routingNumber`: where the money goes, sent with a new method (decision 171),
// or for a saved method without a destination ('details': the same POST, answered 200, decision 172).
type Change = { action: 'add' | 'details' | 'remove' | 'prefer'; method: PayoutMethod; detail?: string; routingNumber?: string };

export function useChangePayoutMethod() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, method, detail, routingNumber }: Change) =>
      action === 'add' || action === 'details'
        ? api<PayoutMethodChange>('/api/payout-methods', { method: 'POST', body: { method, ...(routingNumber === undefined ? {} : { routingNumber }), ...(detail === undefined ? {} : { detail }) } })
        : action === 'remove'
          ? api<PayoutMethodChange>(`/api/payout-methods/${encodeURIComponent(method)}`, { method: 'DELETE' })
          : api<PayoutMethodChange>('/api/payout-methods/preferred', { method: 'PUT', body: { method } }),
    onSuccess: (answer) => {
      client.setQueryData(payoutMethodsQueryKey, answer);
      void client.invalidateQueries({ queryKey: sessionQueryKey });
      if (answer.rebatesPaid.count > 0) void client.invalidateQueries({ queryKey: ['combines'] });
    },
  });
}
