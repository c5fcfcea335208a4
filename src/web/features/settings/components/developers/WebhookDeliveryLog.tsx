import type { WebhookDelivery } from '../../../../../contracts/webhooks';
import { errorMessage } from '../../../../lib/api';
import { Badge } from '../../../../ui/Badge';
import { Button } from '../../../../ui/Button';
import { ErrorState } from '../../../../ui/ErrorState';
import { Spinner } from '../../../../ui/Spinner';
import { useWebhookDeliveries } from '../../api/webhooks';
import { attemptOutcome, DELIVERY_STATUS_LABELS, formatDateTime, responsePreview } from './webhook-words';

const STATUS_TONES = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

/** An endpoint's deliveries, newest first, each with its attempts and "Resend" (docs/rules.md#webhook-delivery). */
export function WebhookDeliveryLog({ endpointId, url, canSend, resending, onResend }: { endpointId: string; url: string; canSend: boolean; resending: string | null; onResend: (delivery: WebhookDelivery) => void }) {
  const deliveries = useWebhookDeliveries(endpointId, true);
  if (deliveries.isPending) return <Spinner label="Loading the delivery log" showLabel />;
  if (deliveries.isError) {
    return <ErrorState compact headingLevel={4} title="Failed to load the delivery log" message={errorMessage(deliveries.error, 'Please try again.')} onRetry={() => void deliveries.refetch()} retrying={deliveries.isFetching} />;
  }
  if (deliveries.data.length === 0) return <p className="text-small text-muted">No deliveries yet. Send a test event to see one here.</p>;
  return (
    <ol className="webhook-deliveries" aria-label={`Deliveries to ${url}`}>
      {deliveries.data.map((delivery) => (
        <li key={delivery.id} className="webhook-delivery" aria-label={`${delivery.eventType}, ${DELIVERY_STATUS_LABELS[delivery.status]}`}>
          <div className="webhook-delivery-head">
            <code className="webhook-event-type">{delivery.eventType}</code>
            <Badge tone={STATUS_TONES[delivery.status]}>{DELIVERY_STATUS_LABELS[delivery.status]}</Badge>
            <Button size="sm" variant="ghost" className="webhook-resend" disabled={!canSend || resending !== null} loading={resending === delivery.id} onClick={() => onResend(delivery)} aria-label={`Resend ${delivery.eventType} event`} aria-describedby={`delivery-${delivery.id}`}>
              Resend
            </Button>
          </div>
          <p className="text-small text-muted webhook-delivery-meta" id={`delivery-${delivery.id}`}>
            {formatDateTime(delivery.createdAt)} · {delivery.eventId}
            {delivery.nextAttemptAt && ` · Next attempt ${formatDateTime(delivery.nextAttemptAt)}`}
          </p>
          {delivery.attempts.length === 0 ? (
            <p className="text-small text-muted">Not attempted yet.</p>
          ) : (
            <ol className="webhook-attempts" aria-label={`Attempts of ${delivery.eventType}`}>
              {delivery.attempts.map((attempt) => (
                <li key={attempt.at} className="webhook-attempt">
                  <span className="text-small">
                    {formatDateTime(attempt.at)} · <strong>{attemptOutcome(attempt)}</strong> · {attempt.durationMs} ms
                  </span>
                  {attempt.responseStart && <pre className="webhook-response">{responsePreview(attempt.responseStart)}</pre>}
                </li>
              ))}
            </ol>
          )}
        </li>
      ))}
    </ol>
  );
}
