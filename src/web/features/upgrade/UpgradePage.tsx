import type { BillingCycle } from '../../../core/plans';
import { yearlySavingLabel, yearlySavingPercentAllPlans } from '../../../core/plans';
import type { PlansResponse } from '../../../contracts/subscription';
import { errorMessage } from '../../lib/api';
import { ChoiceChips } from '../../ui/ChoiceChips';
import { ErrorState } from '../../ui/ErrorState';
import { PageHeader } from '../../ui/PageHeader';
import { AdBanner } from './AdBanner';
import { Spinner } from '../../ui/Spinner';
import { usePlans } from './api/plans';
import { ComparisonPanel } from './ComparisonPanel';
import { LoyaltyPanel } from './LoyaltyPanel';
import { PaymentModal } from './PaymentModal';
import { PlanCard } from './PlanCard';
import { UpgradeSuccessModal } from './UpgradeSuccessModal';
import { useUpgradeContent } from './use-upgrade-content';
import './upgrade.css';

const CYCLES: ReadonlyArray<{ value: BillingCycle; label: string }> = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
];

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
  const { cycle, setCycle, choice, closePayment, onPaid, success, closeSuccess, choose } = useUpgradeContent(data);

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

      <PaymentModal choice={choice} onClose={closePayment} onPaid={onPaid} />
      <UpgradeSuccessModal success={success} onClose={closeSuccess} />
    </div>
  );
}
