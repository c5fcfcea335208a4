import { errorMessage } from '../../lib/api';
import { PROMO } from '../../../core/promo';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { Spinner } from '../../ui/Spinner';
import { usePromoStatus } from './api/promo-status';

/**
 * "$1,000" for a whole-dollar amount in cents. The promo threshold is a whole number of dollars,
 * so the division is exact; a local helper keeps core/money (parsing and all) off this page.
 */
function wholeDollars(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents % 100 !== 0) throw new RangeError(`not whole dollars: ${cents}`);
  return `$${(cents / 100).toLocaleString('en-US')}`;
}

function meterPercent(remaining: number, limit: number): number {
  return Math.min(100, Math.max(0, (remaining / Math.max(1, limit)) * 100));
}

/** The launch promo and how many of its spots are really left (docs/rules.md#screens, docs/rules.md#honest-figures). */
export function PromoBox() {
  const promo = usePromoStatus();
  return (
    <section className="promo" aria-labelledby="promo-title">
      <div className="promo-text">
        <p className="eyebrow eyebrow--light">
          <Icon name="tag" size={16} />
          Launch promo
        </p>
        <h2 id="promo-title">50% off product fees for {PROMO.durationMonths} months</h2>
        <p>
          The first {PROMO.limitCount} users who create a virtual card of {wholeDollars(PROMO.minTotalCents)} or more pay
          half the PayWeave product fee, and half the cash-out fee, for {PROMO.durationMonths} months, starting with that
          very card. Card-processor, card-creation and BNPL fees are not discounted.
        </p>
      </div>
      <div className="promo-status" aria-live="polite">
        {promo.data ? (
          promo.data.remainingCount > 0 ? (
            <>
              <p className="promo-count">
                <strong>{promo.data.remainingCount}</strong> of {promo.data.limitCount} discounts remaining
              </p>
              <div className="promo-meter" aria-hidden="true">
                <span style={{ width: `${meterPercent(promo.data.remainingCount, promo.data.limitCount)}%` }} />
              </div>
            </>
          ) : (
            <p className="promo-count promo-count--closed">All promo spots have been claimed!</p>
          )
        ) : promo.isError ? (
          <ErrorState
            compact
            headingLevel={3}
            title="Promo spots could not be loaded"
            message={errorMessage(promo.error, 'Failed to load the promo status.')}
            onRetry={() => void promo.refetch()}
            retrying={promo.isFetching}
          />
        ) : (
          <Spinner label="Checking how many promo spots are left" showLabel />
        )}
      </div>
    </section>
  );
}
