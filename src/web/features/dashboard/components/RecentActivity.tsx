import { Link } from 'react-router';
import type { DashboardData } from '../../../../contracts/dashboard';
import { Money } from '../../../ui/Money';
import { Panel } from '../../../ui/Panel';

const SHORT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const CARD_STATUS_LABELS: Record<string, string> = { active: 'Active', cashed_out: 'Cashed Out', expired: 'Expired', closed: 'Closed' };
/** As Card History says it: a frozen card is named so, not shown as plainly active. */
const cardStatusLabel = (card: { status: string; frozen: boolean }) => `${CARD_STATUS_LABELS[card.status] ?? card.status}${card.frozen ? ' · Frozen' : ''}`;

/** The last three completed combines, each with a link to its details. */
export function RecentActivity({ recentCombines }: { recentCombines: DashboardData['recentCombines'] }) {
  return (
    <Panel title="Recent activity" actions={<Link to="/history">View all</Link>}>
      {recentCombines.length === 0 ? (
        <p className="text-muted">No combines yet. Your last three completed combines will appear here.</p>
      ) : (
        <ul className="activity-list">
          {recentCombines.map((combine) => (
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
  );
}
