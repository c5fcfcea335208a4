import { useRef, useState, type RefObject } from 'react';
import { SUBSCRIPTION_MESSAGES, type SubscriptionView } from '../../../contracts/subscription';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PLANS, yearlySavingLabel, yearlySavingPercent, yearlySavingPercentAllPlans } from '../../../core/plans';
import { ApiError, errorMessage } from '../../lib/api';
import { Button, ButtonLink } from '../../ui/Button';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ErrorState } from '../../ui/ErrorState';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/toast';
import { useCancelSubscription, useSubscription } from './api/subscription';
import './payout-subscription.css';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const formatDate = (iso: string | null) => (iso ? DATE.format(new Date(iso)) : null);

/**
 * Settings → Subscription: plan, cycle, price, loyalty month and discount, next billing date,
 * and Cancel (the plan stays until the end of the paid period, then Free; loyalty resets).
 */
export function SubscriptionPanel() {
  const subscription = useSubscription();
  const cancel = useCancelSubscription();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  // Once cancelled, the button that opened the confirmation is gone: focus goes to what changed.
  const cancelledNotice = useRef<HTMLDivElement>(null);

  const confirmCancel = () => {
    cancel.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        toast.success(answer.message);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : SUBSCRIPTION_MESSAGES.cancelFailed);
      },
    });
  };

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
        onOpenChange={(open) => (cancel.isPending ? undefined : setConfirming(open))}
        title="Cancel your subscription?"
        confirmLabel="Cancel Subscription"
        cancelLabel="Keep My Plan"
        tone="danger"
        busy={cancel.isPending}
        onConfirm={confirmCancel}
        fallbackFocus={() => cancelledNotice.current}
      >
        You keep the {PLANS[view?.plan ?? 'free'].name} plan until {formatDate(view?.periodEnd ?? null) ?? 'the end of the paid period'}, then your account moves to
        the Free plan. Your loyalty discount starts again from month 1.
      </ConfirmModal>
    </div>
  );
}

function SubscriptionDetails({ view, onCancel, cancelledNotice }: { view: SubscriptionView; onCancel: () => void; cancelledNotice: RefObject<HTMLDivElement | null> }) {
  const plan = PLANS[view.plan];
  const paid = view.plan !== 'free' && view.billingCycle !== null;
  const perCycle = view.billingCycle === 'yearly' ? 'year' : 'month';
  return (
    <>
      <dl className="settings-facts" aria-label="Your subscription">
        <div>
          <dt>Plan</dt>
          <dd data-testid="subscription-plan">{plan.label}</dd>
        </div>
        {paid && (
          <>
            <div>
              <dt>Billing cycle</dt>
              <dd>
                {view.billingCycle === 'yearly'
                  ? `Yearly (${yearlySavingLabel(yearlySavingPercent(view.plan)).toLowerCase()} against monthly)`
                  : `Monthly (yearly billing would ${yearlySavingLabel(yearlySavingPercent(view.plan)).toLowerCase()})`}
              </dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>
                {formatUsd(view.priceCents)} / {perCycle}
              </dd>
            </div>
            <div>
              <dt>Loyalty</dt>
              <dd data-testid="subscription-loyalty">
                {/* docs/rules.md#loyalty: the loyalty discount resets on cancel; "Month 0" would read as a fault. */}
                {view.cancelAtPeriodEnd
                  ? 'Reset by the cancellation: a new subscription starts again at month 1'
                  : `Month ${view.loyaltyMonths}, ${formatPpmAsPercent(view.loyaltyDiscountPpm)} discount`}
              </dd>
            </div>
            {view.lastPayment && (
              <div>
                <dt>Last payment</dt>
                <dd>
                  {formatUsd(view.lastPayment.amountCents)} on {formatDate(view.lastPayment.createdAt)}
                  {view.lastPayment.cardLast4 ? ` (card ending ${view.lastPayment.cardLast4})` : ''}
                </dd>
              </div>
            )}
            {view.nextBillingDate && view.nextPaymentCents !== null && (
              <div>
                <dt>Next billing date</dt>
                <dd data-testid="next-billing-date">
                  {formatDate(view.nextBillingDate)}: {formatUsd(view.nextPaymentCents)} ({formatPpmAsPercent(view.nextLoyaltyDiscountPpm)} loyalty discount)
                </dd>
              </div>
            )}
          </>
        )}
      </dl>

      {!paid ? (
        <>
          <p>
            Upgrade for lower fees, more combines a month, more payout methods and no ads. Yearly billing: {yearlySavingLabel(yearlySavingPercentAllPlans())} against 12
            monthly payments.
          </p>
          <ButtonLink to="/upgrade">See plans and upgrade</ButtonLink>
        </>
      ) : view.cancelAtPeriodEnd ? (
        <div ref={cancelledNotice} tabIndex={-1} className="subscription-cancelled">
          <Notice tone="warning" title="Your subscription is cancelled">
            <p>
              You keep the {plan.name} plan until {formatDate(view.periodEnd)}; then your account moves to the Free plan.
            </p>
          </Notice>
        </div>
      ) : (
        <div className="button-row">
          {view.plan !== 'premium+' && (
            <ButtonLink to="/upgrade" variant="secondary">
              Upgrade
            </ButtonLink>
          )}
          <Button variant="danger" onClick={onCancel}>
            Cancel Subscription
          </Button>
        </div>
      )}
    </>
  );
}
