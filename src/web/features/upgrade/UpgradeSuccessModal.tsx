import { formatUsd } from '../../../core/money';
import type { UpgradeResponse } from '../../../contracts/subscription';
import { Button, ButtonLink } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** After a paid upgrade: what was paid and the next billing date. */
export function UpgradeSuccessModal({ success, onClose }: { success: UpgradeResponse | null; onClose: () => void }) {
  return (
    <Modal
      open={success !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Upgrade successful!"
      // The 'Upgrade to …' button that opened the payment is now a disabled 'Not Available':
      // focus goes to the plan now current, which says what changed.
      fallbackFocus={() => document.querySelector<HTMLElement>('.plan-card--current h2')}
      footer={
        <>
          <Button variant="secondary" onClick={() => onClose()}>
            Close
          </Button>
          <ButtonLink to="/dashboard">Go to Dashboard</ButtonLink>
        </>
      }
    >
      {success && (
        <div className="stack">
          <p>{success.message}</p>
          <p>
            You paid <strong>{formatUsd(success.payment.amountCents)}</strong>
            {success.payment.cardLast4 ? ` with the card ending ${success.payment.cardLast4}` : ''}.
          </p>
          <p data-testid="next-billing-date">
            Next billing date: <strong>{longDate.format(new Date(success.nextBillingDate))}</strong>
          </p>
        </div>
      )}
    </Modal>
  );
}
