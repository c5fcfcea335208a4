import { Link } from 'react-router';
import type { Profile } from '../../../contracts/me';
import { formatUsd } from '../../../core/money';
import { payoutMethodList } from '../../../core/plans';
import { errorMessage } from '../../lib/api';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ErrorState } from '../../ui/ErrorState';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { AddPayoutMethodForm } from './AddPayoutMethodForm';
import { PayoutMethodItem, RemovalConsequences } from './PayoutMethodItem';
import { usePayoutMethodsPanel } from './use-payout-methods-panel';
import './payout-subscription.css';

/**
 * Settings → Payout Methods (docs/rules.md#screens, docs/rules.md#payout-method-settings): add what the plan allows, remove, choose the
 * preferred one (which receives BNPL rebates). Every toast is the spec's. The state is
 * `usePayoutMethodsPanel`'s; each row and the add form are their own views.
 */
export function PayoutMethodsPanel({ profile }: { profile: Profile }) {
  const state = usePayoutMethodsPanel(profile);
  const { methods, plan, heading, removing, busy, notOnPlan, preferredWithoutDetails } = state;

  return (
    <div className="settings-panel">
      <h2 ref={heading} tabIndex={-1}>
        Payout Methods
      </h2>
      <p className="settings-note">Where cash-outs and BNPL rebates are paid. Your preferred method receives rebates.</p>
      {methods.isPending ? (
        <Spinner label="Loading payout methods" showLabel />
      ) : methods.isError ? (
        <ErrorState compact headingLevel={3} title="Failed to load account settings" message={errorMessage(methods.error, 'Please try again.')} onRetry={() => void methods.refetch()} retrying={methods.isFetching} />
      ) : (
        <>
          {methods.data.pendingRebates.count > 0 && (
            <Notice tone="info" title="A rebate is waiting for you">
              <p>
                {formatUsd(methods.data.pendingRebates.amountCents)} in BNPL rebates will be paid as soon as{' '}
                {preferredWithoutDetails ? `you enter the details of ${preferredWithoutDetails.label}, your preferred method.` : 'you add a payout method.'}
              </p>
            </Notice>
          )}
          {methods.data.methods.length === 0 ? (
            <p>You have no payout methods yet.</p>
          ) : (
            <ul className="payout-list" aria-label="Your payout methods">
              {methods.data.methods.map((entry) => (
                <PayoutMethodItem key={entry.method} entry={entry} state={state} />
              ))}
            </ul>
          )}

          <h3>Add a payout method</h3>
          {state.addable.length === 0 ? (
            <p className="settings-note">Every payout method of the {plan.name} plan is added.</p>
          ) : (
            <AddPayoutMethodForm state={state} />
          )}
          <ConfirmModal
            open={removing !== null}
            onOpenChange={(open) => !open && state.setRemoving(null)}
            title={removing ? `Remove ${removing.label}?` : ''}
            confirmLabel="Remove"
            tone="danger"
            busy={busy?.startsWith('remove:') ?? false}
            onConfirm={() => removing && state.run('remove', removing.method)}
            fallbackFocus={() => heading.current}
          >
            {removing && <RemovalConsequences entry={removing} others={methods.data.methods.length - 1} />}
          </ConfirmModal>
          {notOnPlan.length > 0 && (
            <p className="settings-note">
              The {plan.name} plan pays out to {payoutMethodList(plan.payoutMethods, 'and')}.{' '}
              <Link to="/upgrade">Upgrade</Link> to add {payoutMethodList(notOnPlan, 'and')}.
            </p>
          )}
        </>
      )}
    </div>
  );
}
