import { Link } from 'react-router';
import { BOOSTS } from '../../../../core/boosts';
import { combinesLeftText } from '../../../../core/limits';
import { PLANS } from '../../../../core/plans';
import type { DashboardData } from '../../../../contracts/dashboard';
import { ButtonLink } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Panel } from '../../../ui/Panel';

/** The plan, the combines this month against its limit, and the boosts held and used. */
export function PlanSummary({ data }: { data: DashboardData }) {
  const plan = PLANS[data.plan.id];
  const { combinesThisMonth: month, boosts } = data;
  return (
    <div className="dashboard-grid">
      <Panel title="Your plan" actions={<Link to="/settings?tab=subscription">Manage</Link>}>
        <p className="dashboard-plan">{plan.label}</p>
        <ul className="dashboard-features">
          {plan.features.map((feature) => (
            <li key={feature}>
              <Icon name="check" size={16} />
              {feature}
            </li>
          ))}
        </ul>
        {plan.id !== 'premium+' && (
          <ButtonLink to="/upgrade" variant="secondary" size="sm">
            Upgrade plan
          </ButtonLink>
        )}
      </Panel>
      <div className="dashboard-stack">
        <Panel title="Combines this month">
          {month.limit === null ? (
            <>
              <p className="dashboard-figure">{month.completed}</p>
              <p className="text-muted">Unlimited on your plan.</p>
            </>
          ) : (
            <>
              <p className="dashboard-figure">
                {month.completed} <span className="text-muted">of {month.limit}</span>
              </p>
              <meter
                className="dashboard-meter"
                min={0}
                max={month.limit}
                value={Math.min(month.completed, month.limit)}
                aria-label={`${month.completed} of ${month.limit} combines used this month`}
              />
              <p className="text-muted" data-testid="combines-left">
                {combinesLeftText(month)}
                {month.remaining === 0 ? '. Monthly limit reached: upgrade for more.' : '.'}
              </p>
            </>
          )}
        </Panel>
        <Panel title="Fee boosts">
          <p className="dashboard-figure">
            {boosts.available} <span className="text-muted">of {boosts.maxHeld} available</span>
          </p>
          <p className="text-muted">
            {boosts.used} of {boosts.maxLifetimeUsed} used. Earn a boost for every {BOOSTS.combinesPerBoost} combines; each one waives the product fee of one combine.
          </p>
        </Panel>
      </div>
    </div>
  );
}
