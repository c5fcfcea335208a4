import { PLANS } from '../../../core/plans';
import { errorMessage } from '../../lib/api';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ErrorState } from '../../ui/ErrorState';
import { Spinner } from '../../ui/Spinner';
import { SubscriptionDetails } from './SubscriptionDetails';
import { formatDate, useSubscriptionPanel } from './use-subscription-panel';
import './payout-subscription.css';

/**
 * Settings → Subscription: plan, cycle, price, loyalty month and discount, next billing date,
 * and Cancel (the plan stays until the end of the paid period, then Free; loyalty resets). The
 * state is `useSubscriptionPanel`'s; the facts are `SubscriptionDetails`.
 */
export function SubscriptionPanel() {
  const { subscription, confirming, setConfirming, cancelledNotice, confirmCancel, cancelling } = useSubscriptionPanel();

  const view = subscription.data;
  return (
    <div className="settings-panel">
      <h2>Subscription</h2>
      {subscription.isPending ? (
        <Spinner label="Loading your subscription" showLabel />
      ) : subscription.isError ? (
        <ErrorState
          compact
          headingLevel={3}
          title="Failed to load account settings"
          message={errorMessage(subscription.error, 'Please try again.')}
          onRetry={() => void subscription.refetch()}
          retrying={subscription.isFetching}
        />
      ) : (
        <SubscriptionDetails view={subscription.data} onCancel={() => setConfirming(true)} cancelledNotice={cancelledNotice} />
      )}
      <ConfirmModal
        open={confirming}
        onOpenChange={(open) => (cancelling ? undefined : setConfirming(open))}
        title="Cancel your subscription?"
        confirmLabel="Cancel Subscription"
        cancelLabel="Keep My Plan"
        tone="danger"
        busy={cancelling}
        onConfirm={confirmCancel}
        fallbackFocus={() => cancelledNotice.current}
      >
        You keep the {PLANS[view?.plan ?? 'free'].name} plan until {formatDate(view?.periodEnd ?? null) ?? 'the end of the paid period'}, then your account moves to
        the Free plan. Your loyalty discount starts again from month 1.
      </ConfirmModal>
    </div>
  );
}
