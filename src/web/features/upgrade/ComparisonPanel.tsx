import { useState } from 'react';
import type { BillingCycle, PlanId } from '../../../core/plans';
import { PLAN_IDS, PLANS } from '../../../core/plans';
import { formatUsd } from '../../../core/money';
import type { PlansResponse } from '../../../contracts/subscription';
import { ChoiceChips } from '../../ui/ChoiceChips';
import { Panel } from '../../ui/Panel';
import { COMPARISON_MONTHS, comparisonRows } from './comparison';

export function ComparisonPanel({ data, cycle }: { data: PlansResponse; cycle: BillingCycle }) {
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
