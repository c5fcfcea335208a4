import { useId, useState } from 'react';
import type { WebhookDelivery, WebhookEndpoint } from '../../../../../contracts/webhooks';
import { errorMessage } from '../../../../lib/api';
import { Badge } from '../../../../ui/Badge';
import { Button } from '../../../../ui/Button';
import { useToast } from '../../../../ui/toast';
import { useQueueWebhookDelivery } from '../../api/webhooks';
import { WebhookDeliveryLog } from './WebhookDeliveryLog';
import { endpointStatusText, formatDateTime } from './webhook-words';

type Props = { endpoint: WebhookEndpoint; busy: boolean; onRotate: () => void; onDelete: () => void };

/** One endpoint: its URL and state, its actions, and its delivery log behind a disclosure. */
export function WebhookEndpointItem({ endpoint, busy, onRotate, onDelete }: Props) {
  const toast = useToast();
  const queue = useQueueWebhookDelivery();
  const [logOpen, setLogOpen] = useState(false);
  // 'test', or the delivery whose event is being resent.
  const [sending, setSending] = useState<string | null>(null);
  const logId = useId();
  const enabled = endpoint.status === 'enabled';

  function send(what: string, eventId?: string) {
    setSending(what);
    queue.mutate(
      { endpointId: endpoint.id, ...(eventId ? { eventId } : {}) },
      {
        onSuccess: () => {
          toast.success(eventId ? 'Event queued again: see the delivery log.' : 'Test event sent: see the delivery log.');
          setLogOpen(true);
        },
        onError: (error) => toast.error(errorMessage(error, 'The event could not be sent. Please try again.')),
        onSettled: () => setSending(null),
      },
    );
  }

  return (
    <li className="webhook-endpoint" aria-label={endpoint.url}>
      <div className="webhook-endpoint-main">
        <p className="webhook-url">{endpoint.url}</p>
        <p className="webhook-endpoint-facts">
          <Badge tone={enabled ? 'success' : 'error'}>{endpointStatusText(endpoint)}</Badge>
          <span className="text-small text-muted">Added {formatDateTime(endpoint.createdAt)}</span>
        </p>
        {endpoint.previousSecretValidUntil && (
          <p className="text-small text-muted">The previous secret also signs until {formatDateTime(endpoint.previousSecretValidUntil)}.</p>
        )}
        {!enabled && <p className="text-small">Nothing is sent to it any more. Delete it and add it again to receive webhooks.</p>}
      </div>
      <div className="button-row webhook-endpoint-actions">
        <Button size="sm" variant="secondary" disabled={!enabled || sending !== null || busy} loading={sending === 'test'} onClick={() => send('test')} aria-label={`Send test event to ${endpoint.url}`}>
          Send test event
        </Button>
        <Button size="sm" variant="secondary" disabled={busy} onClick={onRotate} aria-label={`Rotate secret of ${endpoint.url}`}>
          Rotate secret
        </Button>
        <Button size="sm" variant="ghost" disabled={busy} onClick={onDelete} aria-label={`Delete ${endpoint.url}`}>
          Delete
        </Button>
      </div>
      <button type="button" className="webhook-log-toggle" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((open) => !open)} aria-label={`Delivery log of ${endpoint.url}`}>
        <span aria-hidden="true">{logOpen ? '▾' : '▸'}</span> Delivery log
      </button>
      <div id={logId} className="webhook-log" hidden={!logOpen}>
        {logOpen && (
          <WebhookDeliveryLog
            endpointId={endpoint.id}
            url={endpoint.url}
            canSend={enabled}
            resending={sending}
            onResend={(delivery: WebhookDelivery) => send(delivery.id, delivery.eventId)}
          />
        )}
      </div>
    </li>
  );
}
