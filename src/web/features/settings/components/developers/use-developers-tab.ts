import { useRef, useState } from 'react';
import type { WebhookEndpoint } from '../../../../../contracts/webhooks';
import { errorMessage } from '../../../../lib/api';
import { useToast } from '../../../../ui/toast';
import { useDeleteWebhookEndpoint, useRotateWebhookSecret, useWebhookEndpoints, type WebhookEndpointWithSecret } from '../../api/webhooks';

/**
 * The Developers tab's state: the endpoints, the one whose rotation or deletion waits for
 * confirmation, and the secret shown once (docs/rules.md#webhook-secrets) until the user closes it.
 */
export function useDevelopersTab() {
  const endpoints = useWebhookEndpoints();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhookEndpoint();
  const toast = useToast();
  const [confirming, setConfirming] = useState<{ action: 'rotate' | 'delete'; endpoint: WebhookEndpoint } | null>(null);
  const [secret, setSecret] = useState<{ shown: WebhookEndpointWithSecret; rotated: boolean } | null>(null);
  // Delete takes the row and its button away: focus goes to the tab's heading, not the page's body.
  const heading = useRef<HTMLHeadingElement>(null);

  function confirm() {
    if (!confirming) return;
    const { action, endpoint } = confirming;
    if (action === 'rotate') {
      rotate.mutate(endpoint.id, {
        onSuccess: (answer) => setSecret({ shown: answer, rotated: true }),
        onError: (error) => toast.error(errorMessage(error, 'The secret could not be rotated. Please try again.')),
        onSettled: () => setConfirming(null),
      });
    } else {
      remove.mutate(endpoint.id, {
        onSuccess: () => toast.success(`Endpoint ${endpoint.url} deleted`),
        onError: (error) => toast.error(errorMessage(error, 'The endpoint could not be deleted. Please try again.')),
        onSettled: () => setConfirming(null),
      });
    }
  }

  return {
    endpoints,
    heading,
    confirming,
    setConfirming,
    confirm,
    busy: rotate.isPending || remove.isPending,
    secret,
    showSecret: (shown: WebhookEndpointWithSecret) => setSecret({ shown, rotated: false }),
    closeSecret: () => setSecret(null),
  };
}
