import type { DashboardData } from '../../../contracts/dashboard';
import { errorMessage } from '../../lib/api';
import { ButtonLink } from '../../ui/Button';
import { ErrorState } from '../../ui/ErrorState';
import { PageHeader } from '../../ui/PageHeader';
import { Panel } from '../../ui/Panel';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../../lib/session';
import { useDashboard } from './api/dashboard';
import { BalanceChart } from './components/BalanceChart';
import { PlanSummary } from './components/PlanSummary';
import { PromoBanner } from './components/PromoBanner';
import { QuickLinks } from './components/QuickLinks';
import { RecentActivity } from './components/RecentActivity';
import { SavedCombines } from './components/SavedCombines';
import './dashboard.css';

export const DASHBOARD_LOAD_FAILED = 'Failed to load your dashboard';

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
  return (
    <div className="dashboard">
      <PromoBanner promo={data.promo} />
      <SavedCombines />

      <PlanSummary data={data} />

      <QuickLinks />

      <div className="dashboard-columns">
        <RecentActivity recentCombines={data.recentCombines} />
        <Panel title="Balance across your cards">
          <BalanceChart balances={data.balances} />
        </Panel>
      </div>
    </div>
  );
}
