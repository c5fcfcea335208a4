import type { BillingCycle } from '../../../core/plans';
import { yearlySavingLabel, yearlySavingPercent } from '../../../core/plans';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import type { PlanView } from '../../../contracts/subscription';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Icon } from '../../ui/Icon';

export function PlanCard({ plan, cycle, loyaltyPpm, onChoose }: { plan: PlanView; cycle: BillingCycle; loyaltyPpm: number; onChoose: () => void }) {
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
