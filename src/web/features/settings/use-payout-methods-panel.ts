import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Profile } from '../../../contracts/me';
import { PAYOUT_METHOD_MESSAGES, payoutMethodAlreadyAdded } from '../../../contracts/payout-methods';
import type { PayoutMethodsView } from '../../../contracts/payout-methods';
import { formatUsd } from '../../../core/money';
import type { PayoutDetailInput } from '../../../core/payout-details';
import { isPayoutMethod, PAYOUT_METHOD_LABELS, PAYOUT_METHODS, PLANS } from '../../../core/plans';
import type { PayoutMethod } from '../../../core/plans';
import { ApiError } from '../../lib/api';
import { useToast } from '../../ui/toast';
import { usePayoutDetails } from '../../lib/payout-details-form';
import { useChangePayoutMethod, usePayoutMethods } from './api/payout-methods';

export type PayoutMethodsEntry = PayoutMethodsView['methods'][number];

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
 * The payout methods panel's state: the saved methods, the one being added, the one whose details
 * are entered again, the one whose removal waits for confirmation, and the change in flight.
 */
export function usePayoutMethodsPanel(profile: Profile) {
  const methods = usePayoutMethods();
  const change = useChangePayoutMethod();
  const toast = useToast();
  const ids = { select: useId(), detail: useId(), routing: useId(), againDetail: useId(), againRouting: useId() };
  const [choice, setChoice] = useState('');
  const entered = usePayoutDetails();
  // Decision 172: the saved method whose details are being entered again, and what is typed.
  const [completing, setCompleting] = useState<PayoutMethod | null>(null);
  const again = usePayoutDetails();
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

  const choose = (value: string) => {
    setChoice(value);
    entered.clearErrors();
  };

  const startCompleting = (method: PayoutMethod) => {
    again.reset();
    setCompleting(method);
  };

  const notOnPlan = PAYOUT_METHODS.filter((m) => !plan.payoutMethods.includes(m));
  // The picker offers only what can still be added.
  const addable = plan.payoutMethods.filter((m) => !methods.data?.methods.some((saved) => saved.method === m));
  // Rebates go to the preferred method: without a destination they wait for its details (decision 172).
  const preferredWithoutDetails = methods.data?.methods.find((m) => m.preferred && m.needsDetails) ?? null;

  return {
    methods, plan, heading, ids, choice, choose, entered, again, completing, setCompleting, startCompleting,
    busy, removing, setRemoving, run, add, saveDetails, notOnPlan, addable, preferredWithoutDetails,
  };
}

export type PayoutMethodsPanelState = ReturnType<typeof usePayoutMethodsPanel>;
