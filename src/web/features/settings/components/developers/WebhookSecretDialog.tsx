import { useId } from 'react';
import { Button } from '../../../../ui/Button';
import { Modal } from '../../../../ui/Modal';
import { useToast } from '../../../../ui/toast';
import type { WebhookEndpointWithSecret } from '../../api/webhooks';

/**
 * The signing secret, shown this once after adding an endpoint or rotating its secret
 * (docs/rules.md#webhook-secrets): copied with a button, or selected in its field.
 */
export function WebhookSecretDialog({ shown, rotated, onClose }: { shown: WebhookEndpointWithSecret | null; rotated: boolean; onClose: () => void }) {
  const toast = useToast();
  const fieldId = useId();
  const hintId = useId();

  async function copy(secret: string) {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(secret);
      toast.success('Signing secret copied');
    } catch {
      toast.error('Could not copy the signing secret. Select it and copy it instead.');
    }
  }

  return (
    <Modal
      open={shown !== null}
      onOpenChange={(open) => !open && onClose()}
      title={rotated ? 'New signing secret' : 'Endpoint added: its signing secret'}
      description="Copy it now: it will not be shown again."
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {shown && (
        <div className="webhook-secret">
          <p className="text-small webhook-url">{shown.url}</p>
          <label className="field-label" htmlFor={fieldId}>
            Signing secret
          </label>
          <div className="webhook-secret-row">
            {/* A text area: the whole secret shows, wrapped, on a phone too. */}
            <textarea id={fieldId} className="field-input webhook-secret-value" value={shown.secret} readOnly rows={2} spellCheck={false} aria-describedby={hintId} onFocus={(event) => event.currentTarget.select()} />
            <Button variant="secondary" onClick={() => void copy(shown.secret)} aria-label="Copy signing secret">
              Copy
            </Button>
          </div>
          <p className="text-small text-muted" id={hintId}>
            {rotated && shown.previousSecretValidUntil ? 'The previous secret also signs for 24 hours, so your receiver can switch without missing a delivery. ' : ''}
            Verify each delivery with the <code>standardwebhooks</code> package: <code>new Webhook(secret).verify(body, headers)</code>. See the{' '}
            <a href="/api/docs" target="_blank" rel="noreferrer">
              API documentation
            </a>
            .
          </p>
        </div>
      )}
    </Modal>
  );
}
