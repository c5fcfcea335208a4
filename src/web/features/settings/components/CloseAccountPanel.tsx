import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import { useLeaveSignedOut } from '../../../lib/leave-signed-out';
import { Button } from '../../../ui/Button';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { Notice } from '../../../ui/Notice';
import { useToast } from '../../../ui/toast';
import { useCloseAccount } from '../api/account';
import { ReauthenticateModal } from './ReauthenticateModal';

// Settings → Profile → Close account (decision 165): what closing does, a confirmation, the
// password again when it was not entered in the last 5 minutes, then the landing page. While
// PayWeave owes the user money the server refuses, and the panel says what to do first.

type Step = 'confirm' | 'reauth' | null;
type Refusal = { message: string; code: string | undefined };

const isReauthRequired = (error: unknown) => error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required';

export const ACCOUNT_CLOSED_TOAST = 'Your account is closed. A confirmation is on its way to your e-mail.';

export function CloseAccountPanel() {
  const toast = useToast();
  const leave = useLeaveSignedOut();
  const closing = useCloseAccount();
  const [step, setStep] = useState<Step>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const refusalNotice = useRef<HTMLDivElement>(null);

  // A refusal closes the dialog it came from: focus goes to what it says (the amount, and the link
  // to what to do first), once the dialog has let go of it, rather than to the page's top.
  useEffect(() => {
    if (!refusal) return;
    const timer = setTimeout(() => refusalNotice.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [refusal]);

  /** True when settled (closed or refused), false when the password is needed first. */
  async function attempt(): Promise<boolean> {
    try {
      await closing.mutateAsync();
    } catch (error) {
      if (isReauthRequired(error)) return false;
      setRefusal({ message: errorMessage(error, 'Could not close your account. Please try again.'), code: error instanceof ApiError ? error.code : undefined });
      setStep(null);
      return true;
    }
    setStep(null);
    toast.success(ACCOUNT_CLOSED_TOAST);
    await leave('/');
    return true;
  }

  async function confirm() {
    setRefusal(null);
    if (!(await attempt())) setStep('reauth');
  }

  return (
    <section className="settings-danger-zone" aria-labelledby="close-account-heading">
      <h3 id="close-account-heading">Close account</h3>
      <p className="text-muted">
        Closing your account signs you out on every device and closes your cards for good. Saved drafts are deleted and their holds released, and a paid
        plan ends without a refund of the current period. We keep the records of your payments as the law requires. Cash out or spend the money left on
        your cards first.
      </p>
      {refusal && (
        <div ref={refusalNotice} tabIndex={-1}>
          <Notice tone="error" role="alert">
            {refusal.message}{' '}
            {refusal.code === 'account_has_balance' && <Link to="/cashout">Go to Cash Out</Link>}
            {refusal.code === 'rebates_pending' && <Link to="/settings?tab=payout-methods">Go to Payout Methods</Link>}
            {refusal.code === 'balance_below_cashout' && <Link to="/support">Contact support</Link>}
          </Notice>
        </div>
      )}
      <div className="button-row">
        <Button variant="danger" onClick={() => setStep('confirm')}>
          Close account
        </Button>
      </div>

      <ConfirmModal
        open={step === 'confirm'}
        onOpenChange={(isOpen) => !isOpen && setStep(null)}
        title="Close your account?"
        confirmLabel="Close my account"
        tone="danger"
        busy={closing.isPending}
        onConfirm={() => void confirm()}
      >
        <p>
          You cannot reopen it yourself. You will be signed out everywhere, your cards will stop working, and this e-mail will not sign in or register
          again. Only our support team can reopen a closed account.
        </p>
      </ConfirmModal>

      <ReauthenticateModal
        open={step === 'reauth'}
        onOpenChange={(isOpen) => !isOpen && setStep(null)}
        description="For your security, enter your password again before closing your account."
        onConfirmed={async () => {
          await attempt();
        }}
      />
    </section>
  );
}
