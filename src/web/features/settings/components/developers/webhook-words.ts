// What the Developers tab says about endpoints, deliveries and attempts (docs/rules.md#webhooks), in words.
import type { WebhookDelivery, WebhookEndpoint } from '../../../../../contracts/webhooks';

type Attempt = WebhookDelivery['attempts'][number];

const DISABLED: Record<NonNullable<WebhookEndpoint['disabledReason']>, string> = {
  gone: 'Disabled: the receiver answered 410 Gone',
  failing_too_long: 'Disabled: every delivery failed for 5 days',
};

export function endpointStatusText(endpoint: WebhookEndpoint): string {
  if (endpoint.status === 'enabled') return 'Enabled';
  return endpoint.disabledReason ? DISABLED[endpoint.disabledReason] : 'Disabled';
}

export const DELIVERY_STATUS_LABELS: Record<WebhookDelivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

/** "HTTP 200", or why there was no answer (a timeout, a refused address, a connection that failed). */
export function attemptOutcome(attempt: Attempt): string {
  if (attempt.status !== null) return attempt.error ? `HTTP ${attempt.status}: ${attempt.error}` : `HTTP ${attempt.status}`;
  return attempt.error ?? 'No answer';
}

/** The server keeps up to 1 KiB of each answer; a few lines of it are enough to recognise it here. */
export const RESPONSE_PREVIEW_CHARS = 300;
export function responsePreview(text: string): string {
  return text.length > RESPONSE_PREVIEW_CHARS ? `${text.slice(0, RESPONSE_PREVIEW_CHARS)}…` : text;
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
