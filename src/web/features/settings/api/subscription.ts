// Settings → Subscription: GET /api/subscription and POST /api/subscription/cancel.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CancelResponse, SubscriptionView } from '../../../../contracts/subscription';
import { api } from '../../../lib/api';
import { sessionQueryKey } from '../../../lib/session';

export const subscriptionQueryKey = ['subscription'] as const;

export function useSubscription() {
  return useQuery({ queryKey: subscriptionQueryKey, queryFn: () => api<SubscriptionView>('/api/subscription') });
}

export function useCancelSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<CancelResponse>('/api/subscription/cancel', { method: 'POST' }),
    onSuccess: (answer) => {
      client.setQueryData(subscriptionQueryKey, answer.subscription);
      void client.invalidateQueries({ queryKey: sessionQueryKey });
      void client.invalidateQueries({ queryKey: ['plans'] });
    },
  });
}
