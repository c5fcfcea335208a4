import type { Profile } from '../../../../contracts/me';
import { ButtonLink } from '../../../ui/Button';

const PLAN_LABELS: Record<Profile['subscription'], string> = { free: 'Free Plan', premium: 'Premium Plan', 'premium+': 'Premium+ Plan' };

/** Settings → Subscription. Billing details and cancelling come with their own issue. */
export function SubscriptionTab({ profile }: { profile: Profile }) {
  return (
    <div className="settings-panel">
      <h2>Subscription</h2>
      <p>
        You are on the <strong>{PLAN_LABELS[profile.subscription]}</strong>.
      </p>
      {profile.subscription !== 'premium+' && (
        <ButtonLink to="/upgrade" variant="secondary">
          See plans and upgrade
        </ButtonLink>
      )}
    </div>
  );
}
