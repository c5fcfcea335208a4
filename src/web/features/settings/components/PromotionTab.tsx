import { Link } from 'react-router';
import type { Profile } from '../../../../contracts/me';
import { PROMO, promoDaysRemaining } from '../../../../core/promo';
import { Notice } from '../../../ui/Notice';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** Settings → Promotion Status: days left of the launch promo, from promo_end (docs/rules.md#screens). */
export function PromotionTab({ profile, now = new Date() }: { profile: Profile; now?: Date }) {
  const promoEnd = profile.promoEnd ? new Date(profile.promoEnd) : null;
  const days = promoDaysRemaining(promoEnd, now);
  return (
    <div className="settings-panel">
      <h2>Promotion Status</h2>
      {profile.promoActive && promoEnd ? (
        <Notice tone="success" title="Launch promo: 50% off platform fees">
          <p>
            <strong className="settings-days">
              {days} {days === 1 ? 'day' : 'days'} remaining
            </strong>{' '}
            — your discount runs until {DATE.format(promoEnd)}.
          </p>
          <p>It halves PayWeave’s product fee and cash-out fee; card-processor, card-creation and BNPL fees stay as they are.</p>
        </Notice>
      ) : (
        <>
          <Notice tone="info" title="No promotion is active">
            {promoEnd ? <p>Your launch promo ended on {DATE.format(promoEnd)}.</p> : <p>You do not have an active promotion on your account.</p>}
          </Notice>
          {!profile.promo50offFirstYear && (
            <p className="settings-note">
              The first {PROMO.limitCount} people who create a virtual card of $1,000.00 or more get 50% off PayWeave’s fees for 12
              months. <Link to="/create-card">Create a card</Link>
            </p>
          )}
        </>
      )}
    </div>
  );
}
