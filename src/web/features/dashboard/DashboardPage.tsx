import { Link } from 'react-router';
import { BOOSTS } from '../../../core/boosts';
import { combinesLeftText } from '../../../core/limits';
import { PLANS } from '../../../core/plans';
import type { DashboardData } from '../../../contracts/dashboard';
import { errorMessage } from '../../lib/api';
import { ButtonLink } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import type { IconName } from '../../ui/Icon';
import { Money } from '../../ui/Money';
import { PageHeader } from '../../ui/PageHeader';
import { Panel } from '../../ui/Panel';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../../lib/session';
import { useDashboard } from './api/dashboard';
import { BalanceChart } from './components/BalanceChart';
import { PromoBanner } from './components/PromoBanner';
import { SavedCombines } from './components/SavedCombines';
import './dashboard.css';

export const DASHBOARD_LOAD_FAILED = 'Failed to load your dashboard';

// Title case, as the spec writes 'Create a Card' and the side menu 'My Cards', 'Cash Out'.
const QUICK_LINKS: readonly { to: string; label: string; icon: IconName }[] = [
  { to: '/create-card', label: 'Create a Card', icon: 'card' },
  { to: '/my-cards', label: 'My Cards', icon: 'layers' },
  { to: '/cashout', label: 'Cash Out', icon: 'wallet' },
  { to: '/history', label: 'Card History', icon: 'clock' },
];

const SHORT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const CARD_STATUS_LABELS: Record<string, string> = { active: 'Active', cashed_out: 'Cashed Out', expired: 'Expired', closed: 'Closed' };
/** As Card History says it: a frozen card is named so, not shown as plainly active. */
const cardStatusLabel = (card: { status: string; frozen: boolean }) => `${CARD_STATUS_LABELS[card.status] ?? card.status}${card.frozen ? ' · Frozen' : ''}`;

/**
 * docs/rules.md#screens /dashboard: promo banner, plan card, combines this month against the plan's limit,
 * boosts held and used, quick links, the last 3 completed combines and the balance chart. Every
 * figure comes from GET /api/dashboard; a failed load says so with a retry, never sample data.
 */
export default function DashboardPage() {
  const { profile } = useSession();
  const dashboard = useDashboard();
  if (!profile) return null; // RequireAuth renders this page only with a profile.

  return (
    <section className="page">
      <PageHeader
        title="Dashboard"
        description={
          <>
            Signed in as <strong className="dashboard-email">{profile.email}</strong>
          </>
        }
        actions={
          <ButtonLink to="/create-card" variant="primary">
            Create a Card
          </ButtonLink>
        }
      />
      {dashboard.isPending ? (
        <div className="page-center">
          <Spinner label="Loading your dashboard" showLabel />
        </div>
      ) : dashboard.isError ? (
        <ErrorState
          title={DASHBOARD_LOAD_FAILED}
          message={errorMessage(dashboard.error, 'Please try again.')}
          onRetry={() => void dashboard.refetch()}
          retrying={dashboard.isFetching}
        />
      ) : (
        <DashboardBody data={dashboard.data} />
      )}
    </section>
  );
}

function DashboardBody({ data }: { data: DashboardData }) {
  const plan = PLANS[data.plan.id];
  const { combinesThisMonth: month, boosts } = data;
  return (
    <div className="dashboard">
      <PromoBanner promo={data.promo} />
      <SavedCombines />

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

      <Card as="section" aria-labelledby="dashboard-quick-links" className="dashboard-links">
        <h2 id="dashboard-quick-links" className="visually-hidden">
          Quick links
        </h2>
        <ul>
          {QUICK_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>
                <Icon name={link.icon} />
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </Card>

      <div className="dashboard-columns">
        <Panel title="Recent activity" actions={<Link to="/history">View all</Link>}>
          {data.recentCombines.length === 0 ? (
            <p className="text-muted">No combines yet. Your last three completed combines will appear here.</p>
          ) : (
            <ul className="activity-list">
              {data.recentCombines.map((combine) => (
                <li key={combine.id} className="activity-item">
                  <div>
                    <p className="activity-amount">
                      <Money cents={combine.card?.originalAmountCents ?? combine.totalAmountCents} />
                    </p>
                    <p className="text-small text-muted">
                      {SHORT_DATE.format(new Date(combine.completedAt ?? combine.createdAt))} · {combine.sourceCount} {combine.sourceCount === 1 ? 'source' : 'sources'}
                      {combine.card ? ` · ${cardStatusLabel(combine.card)}` : ''}
                    </p>
                  </div>
                  <Link
                    to={`/history/${combine.id}`}
                    className="activity-link"
                    aria-label={`View Details of the combine of ${SHORT_DATE.format(new Date(combine.completedAt ?? combine.createdAt))}`}
                  >
                    View Details
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Balance across your cards">
          <BalanceChart balances={data.balances} />
        </Panel>
      </div>
    </div>
  );
}
