import type { RefObject } from 'react';
import type { SubscriptionView } from '../../../contracts/subscription';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PLANS, yearlySavingLabel, yearlySavingPercent, yearlySavingPercentAllPlans } from '../../../core/plans';
import { Button, ButtonLink } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { formatDate } from './use-subscription-panel';

/** The subscription's facts, and what can be done with it: upgrade, cancel, or the cancellation said. */
export function SubscriptionDetails({ view, onCancel, cancelledNotice }: { view: SubscriptionView; onCancel: () => void; cancelledNotice: RefObject<HTMLDivElement | null> }) {
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
