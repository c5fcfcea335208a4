// Settings → Developers: the user's webhook endpoints under /api/webhooks (docs/rules.md#webhooks).
// A secret is in the answer of create and rotate only: it is handed to the caller, never cached.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery, WebhookEndpoint } from '../../../../contracts/webhooks';
import { api } from '../../../lib/api';

export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };

// Not under ['me']: signing in as someone else must drop it with the rest of the cache.
export const webhookEndpointsQueryKey = ['webhook-endpoints'] as const;
export const webhookDeliveriesQueryKey = (endpointId: string) => ['webhook-endpoints', endpointId, 'deliveries'] as const;

const endpointPath = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`;

export function useWebhookEndpoints() {
  return useQuery({ queryKey: webhookEndpointsQueryKey, queryFn: async () => (await api<{ endpoints: WebhookEndpoint[] }>('/api/webhooks')).endpoints });
}

/**
 * An endpoint's log, read while it is open. A delivery is sent just after it is queued and retried
 * on a schedule: while one is pending the log is read again every 2 s, else every 5 s, so a new
 * event's delivery shows without a reload (live activity refreshes the page before it is fanned out).
 */
export function useWebhookDeliveries(endpointId: string, enabled: boolean) {
  return useQuery({
    queryKey: webhookDeliveriesQueryKey(endpointId),
    queryFn: async () => (await api<{ deliveries: WebhookDelivery[] }>(`${endpointPath(endpointId)}/deliveries`)).deliveries,
    enabled,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 2_000 : 5_000),
  });
}

function useRefreshEndpoints() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: webhookEndpointsQueryKey, exact: true });
}

export function useCreateWebhookEndpoint() {
  const refresh = useRefreshEndpoints();
  return useMutation({
    mutationFn: (url: string) => api<WebhookEndpointWithSecret>('/api/webhooks', { method: 'POST', body: { url } }),
    onSettled: () => refresh(),
  });
}

export function useDeleteWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(endpointPath(id), { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      client.setQueryData<WebhookEndpoint[]>(webhookEndpointsQueryKey, (list) => list?.filter((e) => e.id !== id));
      client.removeQueries({ queryKey: webhookDeliveriesQueryKey(id) });
    },
    onSettled: () => client.invalidateQueries({ queryKey: webhookEndpointsQueryKey, exact: true }),
  });
}

export function useRotateWebhookSecret() {
  const refresh = useRefreshEndpoints();
  return useMutation({
    mutationFn: (id: string) => api<WebhookEndpointWithSecret>(`${endpointPath(id)}/rotate-secret`, { method: 'POST' }),
    onSettled: () => refresh(),
  });
}

/** "Send test event" and "Resend": each queues a delivery the log then shows. */
export function useQueueWebhookDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, eventId }: { endpointId: string; eventId?: string }) =>
      api<{ deliveryId: string; eventId: string }>(eventId ? `${endpointPath(endpointId)}/events/${encodeURIComponent(eventId)}/resend` : `${endpointPath(endpointId)}/test`, { method: 'POST' }),
    onSuccess: (_answer, { endpointId }) => client.invalidateQueries({ queryKey: webhookDeliveriesQueryKey(endpointId) }),
  });
}
