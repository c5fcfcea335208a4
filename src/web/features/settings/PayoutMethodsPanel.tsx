import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import type { Profile } from '../../../contracts/me';
import { PAYOUT_METHOD_MESSAGES, payoutMethodAlreadyAdded } from '../../../contracts/payout-methods';
import type { PayoutMethodsView } from '../../../contracts/payout-methods';
import { formatUsd } from '../../../core/money';
import type { PayoutDetailInput } from '../../../core/payout-details';
import { isPayoutMethod, PAYOUT_METHOD_LABELS, PAYOUT_METHODS, payoutMethodList, PLANS } from '../../../core/plans';
import type { PayoutMethod } from '../../../core/plans';
import { ApiError, errorMessage } from '../../lib/api';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ErrorState } from '../../ui/ErrorState';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/toast';
import { PayoutDetailFields, usePayoutDetails } from '../../lib/payout-details-form';
import { useChangePayoutMethod, usePayoutMethods } from './api/payout-methods';
import './payout-subscription.css';

type PayoutMethodsEntry = PayoutMethodsView['methods'][number];

const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const FAILURES = {
  add: PAYOUT_METHOD_MESSAGES.addFailed,
  details: PAYOUT_METHOD_MESSAGES.detailsFailed,
  remove: PAYOUT_METHOD_MESSAGES.removeFailed,
  prefer: PAYOUT_METHOD_MESSAGES.preferredFailed,
} as const;

/**
 * A refusal the server explains is shown as is: a 4xx, live mode's 501 and the payout provider's
 * 503 ("Our payment partner did not answer in time. Nothing was saved...", decision 168); anything
 * else gets the spec's toast.
 */
function failureText(error: unknown, fallback: string): string {
  const explained = error instanceof ApiError && ((error.status >= 400 && error.status < 500) || error.status === 501 || error.status === 503);
  return explained ? error.message : fallback;
}

/**
 * Settings → Payout Methods (docs/rules.md#screens, docs/rules.md#payout-method-settings): add what the plan allows, remove, choose the
 * preferred one (which receives BNPL rebates). Every toast is the spec's.
 */
export function PayoutMethodsPanel({ profile }: { profile: Profile }) {
  const methods = usePayoutMethods();
  const change = useChangePayoutMethod();
  const toast = useToast();
  const selectId = useId();
  const detailId = useId();
  const routingId = useId();
  const [choice, setChoice] = useState('');
  const entered = usePayoutDetails();
  // Decision 172: the saved method whose details are being entered again, and what is typed.
  const [completing, setCompleting] = useState<PayoutMethod | null>(null);
  const again = usePayoutDetails();
  const againDetailId = useId();
  const againRoutingId = useId();
  const [busy, setBusy] = useState<string | null>(null);
  // The method whose removal waits for the user's confirmation (decision 169).
  const [removing, setRemoving] = useState<PayoutMethodsEntry | null>(null);
  const plan = PLANS[profile.subscription];
  // Remove takes the row away, and 'Set as Preferred' its own button: focus goes to the panel's
  // heading rather than to the page's body.
  const heading = useRef<HTMLHeadingElement>(null);

  const run = (action: 'add' | 'details' | 'remove' | 'prefer', method: PayoutMethod, details: PayoutDetailInput = {}) => {
    setBusy(`${action}:${method}`);
    change.mutate(
      { action, method, ...details },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          if (answer.rebatesPaid.count > 0) {
            const rebates = answer.rebatesPaid.count === 1 ? 'Your pending BNPL rebate' : `Your ${answer.rebatesPaid.count} pending BNPL rebates`;
            toast.info(`${rebates} of ${formatUsd(answer.rebatesPaid.amountCents)} ${answer.rebatesPaid.count === 1 ? 'was' : 'were'} paid to ${PAYOUT_METHOD_LABELS[method]}.`);
          }
          if (action === 'add') {
            setChoice('');
            entered.reset();
          }
          if (action === 'details') {
            setCompleting(null);
            again.reset();
          }
          if (action !== 'add') heading.current?.focus();
        },
        onError: (error) => toast.error(failureText(error, FAILURES[action])),
        onSettled: () => {
          setBusy(null);
          setRemoving(null);
        },
      },
    );
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    // docs/rules.md#messages: one must be chosen and not already present.
    if (!isPayoutMethod(choice)) {
      toast.error(PAYOUT_METHOD_MESSAGES.select);
      return;
    }
    if (methods.data?.methods.some((m) => m.method === choice)) {
      toast.error(payoutMethodAlreadyAdded(choice));
      return;
    }
    // Where the money goes, asked now so a cash-out never goes to an unnamed account;
    // for ACH, the bank's routing number with the account number (decision 171).
    const checked = entered.check(choice);
    if (checked) run('add', choice, checked.input);
  };

  const saveDetails = (event: FormEvent) => {
    event.preventDefault();
    if (!completing) return;
    const checked = again.check(completing);
    if (checked) run('details', completing, checked.input);
  };

  const notOnPlan = PAYOUT_METHODS.filter((m) => !plan.payoutMethods.includes(m));
  // The picker offers only what can still be added.
  const addable = plan.payoutMethods.filter((m) => !methods.data?.methods.some((saved) => saved.method === m));
  // Rebates go to the preferred method: without a destination they wait for its details (decision 172).
  const preferredWithoutDetails = methods.data?.methods.find((m) => m.preferred && m.needsDetails) ?? null;

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
                <li key={entry.method} className="payout-item">
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
                      <Button
                        size="sm"
                        disabled={busy !== null}
                        onClick={() => {
                          again.reset();
                          setCompleting(entry.method);
                        }}
                        aria-label={`Enter details of ${entry.label}`}
                      >
                        Enter details
                      </Button>
                    )}
                    {!entry.preferred && entry.allowedByPlan && (
                      <Button size="sm" variant="secondary" loading={busy === `prefer:${entry.method}`} disabled={busy !== null} onClick={() => run('prefer', entry.method)} aria-label={`Set ${entry.label} as preferred`}>
                        Set as Preferred
                      </Button>
                    )}
                    <Button size="sm" variant="ghost" loading={busy === `remove:${entry.method}`} disabled={busy !== null} onClick={() => setRemoving(entry)} aria-label={`Remove ${entry.label}`}>
                      Remove
                    </Button>
                  </div>
                  {completing === entry.method && (
                    <form className="payout-add payout-details-again" onSubmit={saveDetails} noValidate aria-label={`Details of ${entry.label}`}>
                      <PayoutDetailFields method={entry.method} details={again} ids={{ routingNumber: againRoutingId, detail: againDetailId }} />
                      <div className="button-row">
                        <Button type="submit" loading={busy === `details:${entry.method}`} disabled={busy !== null}>
                          Save details
                        </Button>
                        <Button variant="ghost" disabled={busy !== null} onClick={() => setCompleting(null)}>
                          Cancel
                        </Button>
                      </div>
                    </form>
                  )}
                </li>
              ))}
            </ul>
          )}

          <h3>Add a payout method</h3>
          {addable.length === 0 ? (
            <p className="settings-note">Every payout method of the {plan.name} plan is added.</p>
          ) : (
            <form className="payout-add" onSubmit={add} noValidate>
              <div className="field">
                <label className="field-label" htmlFor={selectId}>
                  Payout method
                  <span className="field-required" aria-hidden="true">
                    {' '}
                    *
                  </span>
                </label>
                <select
                  id={selectId}
                  className="field-input field-select"
                  value={choice}
                  required
                  onChange={(event) => {
                    setChoice(event.target.value);
                    entered.clearErrors();
                  }}
                >
                  <option value="">Select a payout method</option>
                  {addable.map((m) => (
                    <option key={m} value={m}>
                      {PAYOUT_METHOD_LABELS[m]}
                    </option>
                  ))}
                </select>
              </div>
              {isPayoutMethod(choice) && <PayoutDetailFields method={choice} details={entered} ids={{ routingNumber: routingId, detail: detailId }} />}
              <Button type="submit" loading={busy?.startsWith('add:') ?? false} disabled={busy !== null}>
                Add Payout Method
              </Button>
            </form>
          )}
          <ConfirmModal
            open={removing !== null}
            onOpenChange={(open) => !open && setRemoving(null)}
            title={removing ? `Remove ${removing.label}?` : ''}
            confirmLabel="Remove"
            tone="danger"
            busy={busy?.startsWith('remove:') ?? false}
            onConfirm={() => removing && run('remove', removing.method)}
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

/** What removing a method changes for the user's money, said before they confirm it. */
function RemovalConsequences({ entry, others }: { entry: PayoutMethodsEntry; others: number }) {
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
