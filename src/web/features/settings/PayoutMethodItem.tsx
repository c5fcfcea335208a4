import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { PayoutDetailFields } from '../../lib/payout-details-form';
import type { PayoutMethodsEntry, PayoutMethodsPanelState } from './use-payout-methods-panel';

const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** One saved payout method: its badges, its buttons, and its details entered again (decision 172). */
export function PayoutMethodItem({ entry, state }: { entry: PayoutMethodsEntry; state: PayoutMethodsPanelState }) {
  const { busy, completing, plan } = state;
  return (
    <li className="payout-item">
      <div className="payout-item-main">
        <strong>{entry.label}</strong>
        {entry.detail && <span className="payout-item-detail">{entry.detail}</span>}
        <span className="payout-item-badges">
          {entry.preferred && <Badge tone="brand">Preferred</Badge>}
          <Badge tone={entry.status === 'active' ? 'success' : 'neutral'}>{entry.status === 'active' ? 'Active' : 'Inactive'}</Badge>
          {!entry.allowedByPlan && <Badge tone="warning">Not on the {plan.name} plan</Badge>}
          {entry.needsDetails && <Badge tone="warning">Details needed</Badge>}
        </span>
        {entry.lastUsed && <span className="text-small text-muted">Last used {DATE_TIME.format(new Date(entry.lastUsed))}</span>}
        {entry.needsDetails && (
          <span className="text-small">Nothing can be paid to {entry.label}, cash-out or rebate, until you enter its details again.</span>
        )}
      </div>
      <div className="button-row">
        {entry.needsDetails && entry.allowedByPlan && completing !== entry.method && (
          <Button size="sm" disabled={busy !== null} onClick={() => state.startCompleting(entry.method)} aria-label={`Enter details of ${entry.label}`}>
            Enter details
          </Button>
        )}
        {!entry.preferred && entry.allowedByPlan && (
          <Button size="sm" variant="secondary" loading={busy === `prefer:${entry.method}`} disabled={busy !== null} onClick={() => state.run('prefer', entry.method)} aria-label={`Set ${entry.label} as preferred`}>
            Set as Preferred
          </Button>
        )}
        <Button size="sm" variant="ghost" loading={busy === `remove:${entry.method}`} disabled={busy !== null} onClick={() => state.setRemoving(entry)} aria-label={`Remove ${entry.label}`}>
          Remove
        </Button>
      </div>
      {completing === entry.method && (
        <form className="payout-add payout-details-again" onSubmit={state.saveDetails} noValidate aria-label={`Details of ${entry.label}`}>
          <PayoutDetailFields method={entry.method} details={state.again} ids={{ routingNumber: state.ids.againRouting, detail: state.ids.againDetail }} />
          <div className="button-row">
            <Button type="submit" loading={busy === `details:${entry.method}`} disabled={busy !== null}>
              Save details
            </Button>
            <Button variant="ghost" disabled={busy !== null} onClick={() => state.setCompleting(null)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}

/** What removing a method changes for the user's money, said before they confirm it. */
export function RemovalConsequences({ entry, others }: { entry: PayoutMethodsEntry; others: number }) {
  const where = entry.detail ? `${entry.label} (${entry.detail})` : entry.label;
  return (
    <>
      Cash-outs and BNPL rebates will no longer be paid to {where}. A cash-out already on its way is still paid there.{' '}
      {entry.preferred && others > 0 && 'It is your preferred method: another of your methods becomes preferred. '}
      {others === 0 && 'You will have no payout method left: BNPL rebates wait until you add one. '}
      You can add it again later.
    </>
  );
}
