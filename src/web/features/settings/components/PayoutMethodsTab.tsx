import type { Profile } from '../../../../contracts/me';

const LABELS: Record<Profile['payoutMethods'][number]['method'], string> = { ach: 'ACH', paypal: 'PayPal', cashapp: 'Cash App' };

/** Settings → Payout Methods. Adding, removing and choosing the preferred one come with their own issue. */
export function PayoutMethodsTab({ profile }: { profile: Profile }) {
  return (
    <div className="settings-panel">
      <h2>Payout Methods</h2>
      {profile.payoutMethods.length === 0 ? (
        <p>You have no payout methods saved yet.</p>
      ) : (
        <ul>
          {profile.payoutMethods.map((entry) => (
            <li key={entry.method}>
              {LABELS[entry.method]}
              {profile.preferredPayout === entry.method ? ' (preferred)' : ''}
            </li>
          ))}
        </ul>
      )}
      <p className="text-muted">Adding and removing payout methods will be available here soon.</p>
    </div>
  );
}
