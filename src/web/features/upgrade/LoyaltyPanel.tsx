import { formatPpmAsPercent } from '../../../core/money';
import { loyaltyDiscountPpm } from '../../../core/loyalty';
import type { PlansResponse } from '../../../contracts/subscription';
import { Panel } from '../../ui/Panel';

export function LoyaltyPanel({ data }: { data: PlansResponse }) {
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
