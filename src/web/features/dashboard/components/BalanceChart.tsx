import type { DashboardData } from '../../../../contracts/dashboard';
import { formatUsd } from '../../../../core/money';
import { ButtonLink } from '../../../ui/Button';

/**
 * Where the money is: one bar per card that still holds some, its remaining part (filled) out of
 * its original amount, largest first. The bars are plain SVG; the figures sit in a real table, so
 * a screen reader reads the same numbers the chart draws.
 */
export function BalanceChart({ balances }: { balances: DashboardData['balances'] }) {
  if (balances.bars.length === 0) {
    return (
      <div className="chart-empty">
        <p className="text-muted">No card holds money right now.</p>
        <ButtonLink to="/create-card" size="sm">
          Create a Card
        </ButtonLink>
      </div>
    );
  }
  const scaleCents = Math.max(...balances.bars.map((b) => b.originalAmountCents), 1);
  const hidden = balances.cardsWithBalance - balances.bars.length;
  return (
    <figure className="balance-chart">
      <figcaption>
        <span className="balance-chart-total">{formatUsd(balances.totalRemainingCents)}</span> across {balances.cardsWithBalance}{' '}
        {balances.cardsWithBalance === 1 ? 'card' : 'cards'}
      </figcaption>
      <table className="balance-chart-table">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Card</th>
            <th scope="col">Remaining out of original</th>
            <th scope="col">Remaining</th>
          </tr>
        </thead>
        <tbody>
          {balances.bars.map((bar) => {
            const originalWidth = (bar.originalAmountCents / scaleCents) * 100;
            const remainingWidth = (bar.remainingAmountCents / scaleCents) * 100;
            return (
              <tr key={bar.cardId}>
                <th scope="row">
                  •••• {bar.last4}
                  {(bar.frozen || bar.status !== 'active') && <span className="balance-chart-flag">{bar.frozen ? 'Frozen' : 'Expired'}</span>}
                </th>
                <td className="balance-chart-bar">
                  <svg viewBox="0 0 100 12" preserveAspectRatio="none" role="img" aria-label={`${formatUsd(bar.remainingAmountCents)} left of ${formatUsd(bar.originalAmountCents)}`}>
                    <rect x="0" y="0" width={originalWidth} height="12" rx="2" className="balance-chart-original" />
                    <rect x="0" y="0" width={remainingWidth} height="12" rx="2" className="balance-chart-remaining" />
                  </svg>
                </td>
                <td className="balance-chart-value">
                  {formatUsd(bar.remainingAmountCents)}
                  <span className="text-muted"> of {formatUsd(bar.originalAmountCents)}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {hidden > 0 && (
        <p className="text-small text-muted">
          And {hidden} more {hidden === 1 ? 'card' : 'cards'} with smaller balances.
        </p>
      )}
      {/* Each swatch and its words are one unit, so a narrow screen wraps between items, never
          leaving a swatch at the end of one line and its label on the next. */}
      <p className="balance-chart-legend text-small" aria-hidden="true">
        <span className="legend-item">
          <span className="legend-swatch legend-swatch--remaining" />
          Remaining
        </span>
        <span className="legend-item">
          <span className="legend-swatch legend-swatch--original" />
          Spent, cashed out or reused
        </span>
      </p>
    </figure>
  );
}
