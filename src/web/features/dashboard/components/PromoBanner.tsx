import type { DashboardData } from '../../../../contracts/dashboard';
import { formatUsd } from '../../../../core/money';
import { ButtonLink } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** The launch promo in the state it has for this user (docs/rules.md#screens: active, eligible, closed). */
export function PromoBanner({ promo }: { promo: DashboardData['promo'] }) {
  const end = promo.endsAt ? dateFormat.format(new Date(promo.endsAt)) : null;
  switch (promo.state) {
    case 'active':
      return (
        <section className="promo-banner promo-banner--active" aria-label="Launch promo">
          <Icon name="percent" size={24} />
          <div>
            <h2>Your 50% launch discount is active</h2>
            <p>
              Product fees are halved until {end} ({promo.daysRemaining} {promo.daysRemaining === 1 ? 'day' : 'days'} left). Processor, card-creation and BNPL fees are not
              discounted.
            </p>
          </div>
        </section>
      );
    case 'eligible':
      return (
        <section className="promo-banner promo-banner--eligible" aria-label="Launch promo">
          <Icon name="tag" size={24} />
          <div>
            <h2>
              Launch promo: {promo.remainingCount} of {promo.limitCount} discounts remain
            </h2>
            <p>Create a card of {formatUsd(promo.minTotalCents)} or more to get 50% off product fees for 12 months.</p>
          </div>
          <ButtonLink to="/create-card" variant="accent" size="sm">
            Create a Card
          </ButtonLink>
        </section>
      );
    case 'ended':
      return (
        <section className="promo-banner promo-banner--closed" aria-label="Launch promo">
          <Icon name="clock" size={24} />
          <div>
            <h2>Your launch discount has ended</h2>
            <p>Your 50% off product fees ran until {end}.</p>
          </div>
        </section>
      );
    default:
      return (
        <section className="promo-banner promo-banner--closed" aria-label="Launch promo">
          <Icon name="info" size={24} />
          <div>
            <h2>All promo spots have been claimed!</h2>
            <p>All {promo.limitCount} launch discounts are taken.</p>
          </div>
        </section>
      );
  }
}
