import { useEffect, useRef, useState } from 'react';
import { TWO_FACTOR_MESSAGES, recoveryCodeForm, totpCodeForm } from '../../../contracts/two-factor';
import { ApiError, errorMessage } from '../../lib/api';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Form, useZodForm } from '../../ui/Form';
import { Notice } from '../../ui/Notice';
import { TextField } from '../../ui/TextField';
import { PASSKEY_ICON_PATH, passkeyErrorMessage, passkeysSupported } from '../../lib/passkeys';
import { Icon } from '../../ui/Icon';
import { useLoginTwoFactor, usePasskeySecondFactor } from './api/auth';

// Answers that mean the challenge is gone (expired, used up): back to the password step.
const RESTART_CODES = new Set(['two_factor_challenge_expired', 'two_factor_attempts_exhausted']);

type Props = {
  challengeId: string;
  /** The account has a passkey: it can complete this step instead of a code (docs/decisions/090). */
  passkeyAvailable?: boolean;
  /** Called once the session exists (toast, then the page asked for). */
  onSignedIn: () => Promise<void>;
  /** Back to the password step, with the reason to show there (null when the user chose to). */
  onRestart: (message: string | null) => void;
};

/**
 * The second sign-in step (docs/decisions/014): a code from the authenticator app, or one of the
 * recovery codes. Focus moves to the step's heading whenever it appears or switches.
 */
export function TwoFactorStep({ challengeId, passkeyAvailable = false, onSignedIn, onRestart }: Props) {
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const verify = useLoginTwoFactor();
  const passkey = usePasskeySecondFactor();
  const totpForm = useZodForm(totpCodeForm, { defaultValues: { code: '' } });
  const recoveryForm = useZodForm(recoveryCodeForm, { defaultValues: { code: '' } });

  useEffect(() => {
    heading.current?.focus();
  }, [mode]);

  async function submit({ code }: { code: string }) {
    setFailure(null);
    try {
      await verify.mutateAsync({ challengeId, code });
      await onSignedIn();
    } catch (error) {
      if (error instanceof ApiError && RESTART_CODES.has(error.code)) {
        onRestart(error.message);
        return;
      }
      setFailure(errorMessage(error, TWO_FACTOR_MESSAGES.invalidCode));
      const form = mode === 'totp' ? totpForm : recoveryForm;
      form.reset({ code: '' });
      form.setFocus('code');
    }
  }

  async function signInWithPasskey() {
    setFailure(null);
    try {
      await passkey.mutateAsync({ challengeId });
      await onSignedIn();
    } catch (error) {
      if (error instanceof ApiError && RESTART_CODES.has(error.code)) {
        onRestart(error.message);
        return;
      }
      setFailure(passkeyErrorMessage(error, TWO_FACTOR_MESSAGES.invalidCode));
    }
  }

  function switchTo(next: 'totp' | 'recovery') {
    setFailure(null);
    setMode(next);
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1 ref={heading} tabIndex={-1} className="auth-step-heading">
          {mode === 'totp' ? 'Two-factor authentication' : 'Use a recovery code'}
        </h1>
        <p className="auth-lead">
          {mode === 'totp'
            ? 'Enter the 6-digit code from your authenticator app.'
            : 'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.'}
        </p>
        {failure && (
          <Notice tone="error" role="alert" className="form-alert">
            {failure}
          </Notice>
        )}
        {mode === 'totp' ? (
          <Form key="totp" form={totpForm} onSubmit={submit} aria-label="Sign in with an authentication code">
            <TextField
              name="code"
              label="Authentication code"
              hint="6 digits, for example 123456."
              inputMode="numeric"
              autoComplete="one-time-code"
              spellCheck={false}
              required
            />
            <Button type="submit" block loading={verify.isPending}>
              Verify
            </Button>
          </Form>
        ) : (
          <Form key="recovery" form={recoveryForm} onSubmit={submit} aria-label="Sign in with a recovery code">
            <TextField name="code" label="Recovery code" hint="For example ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345." autoComplete="off" autoCapitalize="characters" spellCheck={false} required />
            <Button type="submit" block loading={verify.isPending}>
              Verify
            </Button>
          </Form>
        )}
        {passkeyAvailable && passkeysSupported() && (
          <div className="auth-passkey">
            <p className="auth-divider">
              <span>or</span>
            </p>
            <Button variant="secondary" block onClick={() => void signInWithPasskey()} loading={passkey.isPending} loadingText="Waiting for your passkey...">
              <Icon d={PASSKEY_ICON_PATH} size={18} />
              Use a passkey
            </Button>
          </div>
        )}
        <div className="auth-footer">
          <p>
            {mode === 'totp' ? (
              <button type="button" className="link-button" onClick={() => switchTo('recovery')}>
                Use a recovery code
              </button>
            ) : (
              <button type="button" className="link-button" onClick={() => switchTo('totp')}>
                Use your authenticator app
              </button>
            )}
          </p>
          <p>
            <button type="button" className="link-button" onClick={() => onRestart(null)}>
              Back to sign in
            </button>
          </p>
        </div>
      </Card>
    </div>
  );
}
