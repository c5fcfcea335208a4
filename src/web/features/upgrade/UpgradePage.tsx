import { useState } from 'react';
import type { BillingCycle, PlanId } from '../../../core/plans';
import { PLAN_IDS, PLANS, yearlySavingLabel, yearlySavingPercent, yearlySavingPercentAllPlans } from '../../../core/plans';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { loyaltyDiscountPpm } from '../../../core/loyalty';
import type { PlanView, PlansResponse, UpgradeResponse } from '../../../contracts/subscription';
import { errorMessage } from '../../lib/api';
import { Badge } from '../../ui/Badge';
import { Button, ButtonLink } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { ChoiceChips } from '../../ui/ChoiceChips';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { AdBanner } from './AdBanner';
import { Panel } from '../../ui/Panel';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/toast';
import { usePlans } from './api/plans';
import { COMPARISON_MONTHS, comparisonRows } from './comparison';
import { PaymentModal, type PaymentChoice } from './PaymentModal';
import './upgrade.css';

const CYCLES: ReadonlyArray<{ value: BillingCycle; label: string }> = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
];

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });


/** /upgrade (docs/rules.md#screens): plan cards, monthly/yearly, loyalty, the comparison table, payment and success. */
export default function UpgradePage() {
  const plans = usePlans();
  return (
    <section className="page upgrade-page">
      <AdBanner />
      <PageHeader title="Upgrade Plan" description="Lower fees, more combines a month and more payout methods." />
      {plans.isPending ? (
        <div className="page-center">
          <Spinner label="Loading plans" showLabel />
        </div>
      ) : plans.isError ? (
        <ErrorState title="Failed to load plans" message={errorMessage(plans.error, 'Please try again.')} onRetry={() => void plans.refetch()} retrying={plans.isFetching} />
      ) : (
        <UpgradeContent data={plans.data} />
      )}
    </section>
  );
}

function UpgradeContent({ data }: { data: PlansResponse }) {
  const toast = useToast();
  const [cycle, setCycle] = useState<BillingCycle>(data.subscription.billingCycle ?? 'monthly');
  const [choice, setChoice] = useState<PaymentChoice | null>(null);
  const [success, setSuccess] = useState<UpgradeResponse | null>(null);

  const choose = (plan: PlanView) => {
    const listPriceCents = cycle === 'monthly' ? plan.priceMonthlyCents : plan.priceYearlyCents;
    setChoice({ plan: plan.id, cycle, listPriceCents, discountPpm: data.loyalty.nextDiscountPpm, amountCents: plan.firstPaymentCents[cycle] });
  };

  return (
    <div className="upgrade-content">
      <div className="upgrade-toolbar">
        <ChoiceChips label="Billing cycle" options={CYCLES} value={cycle} onChange={setCycle} />
        <span className="text-muted">Yearly billing: {yearlySavingLabel(yearlySavingPercentAllPlans())} against 12 monthly payments.</span>
      </div>

      <ul className="plan-grid" aria-label="Plans">
        {data.plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} cycle={cycle} loyaltyPpm={data.loyalty.nextDiscountPpm} onChoose={() => choose(plan)} />
        ))}
      </ul>

      <LoyaltyPanel data={data} />
      <ComparisonPanel data={data} cycle={cycle} />

      <PaymentModal
        choice={choice}
        onClose={() => setChoice(null)}
        onPaid={(answer) => {
          setChoice(null);
          setSuccess(answer);
          toast.success(answer.message);
        }}
      />
      <Modal
        open={success !== null}
        onOpenChange={(open) => (open ? undefined : setSuccess(null))}
        title="Upgrade successful!"
        // The 'Upgrade to …' button that opened the payment is now a disabled 'Not Available':
        // focus goes to the plan now current, which says what changed.
        fallbackFocus={() => document.querySelector<HTMLElement>('.plan-card--current h2')}
        footer={
          <>
            <Button variant="secondary" onClick={() => setSuccess(null)}>
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
    </div>
  );
}

function PlanCard({ plan, cycle, loyaltyPpm, onChoose }: { plan: PlanView; cycle: BillingCycle; loyaltyPpm: number; onChoose: () => void }) {
  const price = cycle === 'monthly' ? plan.priceMonthlyCents : plan.priceYearlyCents;
  const firstPayment = plan.firstPaymentCents[cycle];
  const headingId = `plan-${plan.id.replace('+', '-plus')}`;
  return (
    <Card as="li" className={['plan-card', plan.current ? 'plan-card--current' : ''].filter(Boolean).join(' ')} aria-labelledby={headingId}>
      <div className="plan-card-head">
        <h2 id={headingId} tabIndex={-1}>
          {plan.name}
        </h2>
        {plan.current && <Badge tone="brand">Current plan</Badge>}
      </div>
      {/* The Free plan too reads '$0.00 / month': its name already says 'Free' just above. */}
      <p className="plan-price">
        <strong>{formatUsd(price)}</strong> / {cycle === 'monthly' ? 'month' : 'year'}
      </p>
      {price > 0 && cycle === 'yearly' && <Badge tone="success">{yearlySavingLabel(yearlySavingPercent(plan.id))}</Badge>}
      {plan.upgradable && firstPayment < price && (
        <p className="plan-loyalty">
          Your first payment: <strong>{formatUsd(firstPayment)}</strong> ({formatPpmAsPercent(loyaltyPpm)} loyalty discount)
        </p>
      )}
      <ul className="plan-features">
        {plan.features.map((feature) => (
          <li key={feature}>
            <Icon name="check" size={18} />
            {feature}
          </li>
        ))}
      </ul>
      {plan.upgradable ? (
        <Button block onClick={onChoose}>
          Upgrade to {plan.name}
        </Button>
      ) : (
        <Button block variant="secondary" disabled>
          Not Available
        </Button>
      )}
    </Card>
  );
}

function LoyaltyPanel({ data }: { data: PlansResponse }) {
  const { loyalty, subscription } = data;
  const months = [1, 2, 3, 4, 5, 6];
  return (
    <Panel title="Loyalty discount">
      <p>
        Every consecutive paid month adds 10% off your plan's price, up to {formatPpmAsPercent(loyalty.maxPpm)} from month 6. Month 1 has no discount; cancelling resets it.
        An upgrade is charged the new plan's full price, and its month counts towards the next discounts.
      </p>
      {subscription.plan === 'free' ? (
        <p className="text-muted">You are on the Free plan: your first paid month starts at month 1.</p>
      ) : (
        <p>
          You are in month <strong>{loyalty.months}</strong> ({formatPpmAsPercent(loyalty.currentDiscountPpm)} off). Your next payment gets{' '}
          <strong>{formatPpmAsPercent(loyalty.nextDiscountPpm)}</strong> off your current plan.
        </p>
      )}
      <ol className="loyalty-steps" aria-label="Discount by month">
        {months.map((month) => (
          <li key={month} aria-current={month === Math.min(6, loyalty.months) ? 'step' : undefined}>
            <span className="loyalty-month">Month {month === 6 ? '6+' : month}</span>
            <span className="loyalty-discount">{formatPpmAsPercent(loyaltyDiscountPpm(month))}</span>
          </li>
        ))}
      </ol>
    </Panel>
  );
}

function ComparisonPanel({ data, cycle }: { data: PlansResponse; cycle: BillingCycle }) {
  const [months, setMonths] = useState(3);
  const rows = comparisonRows({ months, cycle, promoActive: data.promoActive, loyaltyMonths: data.loyalty.months, currentPlan: data.subscription.plan });
  const monthOptions = COMPARISON_MONTHS.map((m) => ({ value: String(m), label: m === 1 ? '1 month' : `${m} months` }));
  return (
    <Panel title="Which plan is cheapest for you?">
      <p className="text-muted">
        What you pay in total for making one card of each amount every month: combine fees (card processor, product fee{data.promoActive ? ' with your launch promo' : ''} and
        the {formatUsd(10)} creation fee) plus the {cycle === 'monthly' ? 'monthly subscription' : 'yearly subscription'} after your loyalty discount. The cheapest plan is
        marked.
      </p>
      <ChoiceChips label="Months" options={monthOptions} value={String(months)} onChange={(value) => setMonths(Number(value))} />
      {/* Focusable so a keyboard user can scroll the table sideways on a narrow screen. */}
      <div className="comparison-scroll stack-table-wrap" tabIndex={0} role="region" aria-label="Plan cost comparison">
        <table className="comparison-table stack-table">
          <caption className="visually-hidden">
            Total cost per plan over {months} {months === 1 ? 'month' : 'months'}, {cycle} billing
          </caption>
          <thead>
            <tr>
              <th scope="col">Card amount each month</th>
              {PLAN_IDS.map((plan) => (
                <th key={plan} scope="col">
                  {PLANS[plan].name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.cardCents}>
                <th scope="row">{formatUsd(row.cardCents)}</th>
                {PLAN_IDS.map((plan: PlanId) => {
                  const cheapest = row.cheapest.includes(plan);
                  return (
                    <td key={plan} className={cheapest ? 'comparison-cheapest' : undefined} data-label={PLANS[plan].name}>
                      {formatUsd(row.totals[plan])}
                      {cheapest && <span className="comparison-mark"> Cheapest</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
