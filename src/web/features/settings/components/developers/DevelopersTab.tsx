import { MAX_WEBHOOK_ENDPOINTS } from '../../../../../contracts/webhooks';
import { errorMessage } from '../../../../lib/api';
import { ConfirmModal } from '../../../../ui/ConfirmModal';
import { ErrorState } from '../../../../ui/ErrorState';
import { Spinner } from '../../../../ui/Spinner';
import { AddWebhookEndpointForm } from './AddWebhookEndpointForm';
import { useDevelopersTab } from './use-developers-tab';
import { WebhookEndpointItem } from './WebhookEndpointItem';
import { WebhookSecretDialog } from './WebhookSecretDialog';
import './developers.css';

/** Settings → Developers: webhook endpoints, their secrets and delivery logs (docs/rules.md#webhooks). */
export function DevelopersTab() {
  const state = useDevelopersTab();
  const { endpoints, confirming } = state;

  return (
    <div className="settings-panel">
      <h2 ref={state.heading} tabIndex={-1}>
        Developers
      </h2>
      <p className="settings-note">
        Webhooks: PayWeave posts each of your events (a card created, a purchase approved or declined, a cash-out paid…) to the URLs you add here, signed
        so you can check they come from us. Up to {MAX_WEBHOOK_ENDPOINTS} endpoints. See the{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          API documentation
        </a>
        .
      </p>
      <h3>Endpoints</h3>
      {endpoints.isPending ? (
        <Spinner label="Loading webhook endpoints" showLabel />
      ) : endpoints.isError ? (
        <ErrorState compact headingLevel={4} title="Failed to load webhook endpoints" message={errorMessage(endpoints.error, 'Please try again.')} onRetry={() => void endpoints.refetch()} retrying={endpoints.isFetching} />
      ) : endpoints.data.length === 0 ? (
        <p>You have no webhook endpoints yet.</p>
      ) : (
        <ul className="webhook-endpoints" aria-label="Your webhook endpoints">
          {endpoints.data.map((endpoint) => (
            <WebhookEndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              busy={state.busy}
              onRotate={() => state.setConfirming({ action: 'rotate', endpoint })}
              onDelete={() => state.setConfirming({ action: 'delete', endpoint })}
            />
          ))}
        </ul>
      )}
      <h3>Add endpoint</h3>
      <AddWebhookEndpointForm onAdded={state.showSecret} />
      <ConfirmModal
        open={confirming !== null}
        onOpenChange={(open) => !open && state.setConfirming(null)}
        title={confirming?.action === 'rotate' ? 'Rotate the signing secret?' : 'Delete this endpoint?'}
        confirmLabel={confirming?.action === 'rotate' ? 'Rotate secret' : 'Delete'}
        tone={confirming?.action === 'rotate' ? 'primary' : 'danger'}
        busy={state.busy}
        onConfirm={state.confirm}
        fallbackFocus={() => state.heading.current}
      >
        {confirming?.action === 'rotate'
          ? `A new secret for ${confirming.endpoint.url} is made and shown once. The current one keeps signing for 24 hours, so your receiver can switch without missing a delivery.`
          : `Nothing more is sent to ${confirming?.endpoint.url ?? ''}, and its delivery log is deleted. This cannot be undone.`}
      </ConfirmModal>
      <WebhookSecretDialog shown={state.secret?.shown ?? null} rotated={state.secret?.rotated ?? false} onClose={state.closeSecret} />
    </div>
  );
}
