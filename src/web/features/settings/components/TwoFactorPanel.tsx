import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { reauthenticateRequest } from '../../../../contracts/auth';
import {
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_MESSAGES,
  regenerateRecoveryCodesRequest,
  totpCodeForm,
  twoFactorDisableForm,
  type TwoFactorSetup,
} from '../../../../contracts/two-factor';
import { ApiError, errorMessage } from '../../../lib/api';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { CheckboxField } from '../../../ui/CheckboxField';
import { Form, useZodForm } from '../../../ui/Form';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useReauthenticate,
  useRegenerateRecoveryCodes,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
} from '../api/two-factor';
import { SetupQrCode } from './SetupQrCode';
import '../security-panel.css';
import '../two-factor.css';

// Settings → Security → Two-factor authentication (docs/decisions/014). One panel, one step at a
// time: turning it on (password again if not recent → the key and link for the app → a code →
// the recovery codes, shown once), turning it off, and new recovery codes. Focus moves to each
// step's heading, and back to the panel's heading when a step ends.

type View =
  | { step: 'idle' }
  | { step: 'password' }
  | { step: 'setup'; setup: TwoFactorSetup }
  | { step: 'codes'; codes: string[]; reason: 'enabled' | 'regenerated' }
  | { step: 'disable' }
  | { step: 'regenerate' };

/** The secret in groups of four, as authenticator apps let you type it. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

const savedForm = z.object({
  saved: z.boolean().refine((value) => value, 'Confirm that you have saved your recovery codes'),
});

export function TwoFactorPanel({ enabled }: { enabled: boolean }) {
  const toast = useToast();
  const [view, setView] = useState<View>({ step: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const [focusPanel, setFocusPanel] = useState(false);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const status = useTwoFactorStatus(enabled);

  const start = useStartTwoFactorSetup();
  const reauth = useReauthenticate();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();

  const passwordForm = useZodForm(reauthenticateRequest, { defaultValues: { password: '' } });
  const codeForm = useZodForm(totpCodeForm, { defaultValues: { code: '' } });
  const disableForm = useZodForm(twoFactorDisableForm, { defaultValues: { currentPassword: '', code: '' } });
  const regenerateForm = useZodForm(regenerateRecoveryCodesRequest, { defaultValues: { currentPassword: '' } });
  const confirmForm = useZodForm(savedForm, { defaultValues: { saved: false } });

  useEffect(() => {
    if (view.step !== 'idle') stepHeading.current?.focus();
    else if (focusPanel) panelHeading.current?.focus();
  }, [view, focusPanel]);

  function go(next: View) {
    setProblem(null);
    setFocusPanel(next.step === 'idle');
    setView(next);
  }

  async function copy(what: string, text: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(`${what} copied`);
    } catch {
      toast.error(`Could not copy the ${what.toLowerCase()}. Select it and copy it instead.`);
    }
  }

  async function beginSetup() {
    setProblem(null);
    try {
      const setup = await start.mutateAsync();
      codeForm.reset({ code: '' });
      go({ step: 'setup', setup });
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required') {
        passwordForm.reset({ password: '' });
        go({ step: 'password' });
        return;
      }
      setProblem(errorMessage(error, 'Could not start the setup. Please try again.'));
    }
  }

  async function confirmPassword({ password }: { password: string }) {
    try {
      await reauth.mutateAsync(password);
    } catch (error) {
      passwordForm.setError('password', { message: errorMessage(error, 'That password is incorrect. Please try again.') });
      return;
    }
    await beginSetup();
  }

  async function confirmCode({ code }: { code: string }) {
    setProblem(null);
    try {
      const { recoveryCodes } = await enable.mutateAsync(code);
      confirmForm.reset({ saved: false });
      go({ step: 'codes', codes: recoveryCodes, reason: 'enabled' });
      toast.success('Two-factor authentication is on');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'two_factor_setup_expired') {
        go({ step: 'idle' });
      } else {
        codeForm.reset({ code: '' });
        codeForm.setFocus('code');
      }
      setProblem(errorMessage(error, TWO_FACTOR_MESSAGES.invalidCode));
    }
  }

  async function turnOff(values: { currentPassword: string; code: string }) {
    setProblem(null);
    try {
      await disable.mutateAsync(values);
      disableForm.reset({ currentPassword: '', code: '' });
      go({ step: 'idle' });
      toast.success('Two-factor authentication is off');
    } catch (error) {
      setProblem(errorMessage(error, 'Could not turn off two-factor authentication. Please try again.'));
      disableForm.resetField('code');
    }
  }

  async function newCodes({ currentPassword }: { currentPassword: string }) {
    setProblem(null);
    try {
      const { recoveryCodes } = await regenerate.mutateAsync(currentPassword);
      regenerateForm.reset({ currentPassword: '' });
      confirmForm.reset({ saved: false });
      go({ step: 'codes', codes: recoveryCodes, reason: 'regenerated' });
      toast.success('New recovery codes created');
    } catch (error) {
      setProblem(errorMessage(error, 'Could not create new recovery codes. Please try again.'));
    }
  }

  const problemNotice = problem && (
    <Notice tone="error" role="alert">
      {problem}
    </Notice>
  );

  const stepTitle = (text: string) => (
    <h4 ref={stepHeading} tabIndex={-1} className="two-factor-step-heading">
      {text}
    </h4>
  );

  let body;
  switch (view.step) {
    case 'password':
      body = (
        <>
          {stepTitle('Confirm your password')}
          <p className="text-small">For your security, enter your password again before setting up two-factor authentication.</p>
          <Form form={passwordForm} onSubmit={confirmPassword} aria-label="Confirm your password" className="settings-form">
            <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
            <div className="button-row">
              <Button variant="secondary" onClick={() => go({ step: 'idle' })}>
                Cancel
              </Button>
              <Button type="submit" loading={reauth.isPending || start.isPending}>
                Continue
              </Button>
            </div>
          </Form>
        </>
      );
      break;
    case 'setup':
      body = (
        <>
          {stepTitle('Add PayWeave to your authenticator app')}
          <ol className="two-factor-steps">
            <li>
              In your authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), add an account and scan
              this QR code, or enter the key below by hand. It is time-based, 6 digits.
              <SetupQrCode uri={view.setup.otpauthUri} />
              <div className="two-factor-copy-row">
                <code className="two-factor-secret">
                  {groupSecret(view.setup.secret)}
                </code>
                <Button variant="ghost" size="sm" onClick={() => void copy('Setup key', view.setup.secret)}>
                  Copy key
                </Button>
              </div>
              <p className="text-small text-muted">Apps that accept a setup link can use this one instead:</p>
              <div className="two-factor-copy-row">
                <code className="two-factor-uri">
                  {view.setup.otpauthUri}
                </code>
                <Button variant="ghost" size="sm" onClick={() => void copy('Setup link', view.setup.otpauthUri)}>
                  Copy link
                </Button>
              </div>
            </li>
            <li>Enter the 6-digit code the app now shows for PayWeave.</li>
          </ol>
          {problemNotice}
          <Form form={codeForm} onSubmit={confirmCode} aria-label="Confirm two-factor authentication" className="settings-form">
            <TextField name="code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code" spellCheck={false} required />
            <div className="button-row">
              <Button variant="secondary" onClick={() => go({ step: 'idle' })}>
                Cancel
              </Button>
              <Button type="submit" loading={enable.isPending}>
                Verify and turn on
              </Button>
            </div>
          </Form>
        </>
      );
      break;
    case 'codes':
      body = (
        <>
          {stepTitle('Save your recovery codes')}
          <p className="text-small">
            If you lose your phone, each of these codes lets you sign in once instead of a code from the app. Keep them somewhere safe,
            such as a password manager. They will not be shown again.
          </p>
          {view.reason === 'regenerated' && <p className="text-small">Your previous recovery codes no longer work.</p>}
          <ol className="recovery-codes" aria-label="Recovery codes">
            {view.codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
          <div className="button-row">
            <Button variant="secondary" size="sm" onClick={() => void copy('Recovery codes', view.codes.join('\n'))}>
              Copy codes
            </Button>
          </div>
          <Form form={confirmForm} onSubmit={() => go({ step: 'idle' })} aria-label="Confirm you saved the recovery codes" className="settings-form">
            <CheckboxField name="saved" label="I have saved these codes" required />
            <div className="button-row">
              <Button type="submit">Done</Button>
            </div>
          </Form>
        </>
      );
      break;
    case 'disable':
      body = (
        <>
          {stepTitle('Turn off two-factor authentication')}
          <p className="text-small">Signing in will need only your password. Your recovery codes stop working.</p>
          {problemNotice}
          <Form form={disableForm} onSubmit={turnOff} aria-label="Turn off two-factor authentication" className="settings-form">
            <TextField name="currentPassword" label="Current password" type="password" autoComplete="current-password" required />
            <TextField
              name="code"
              label="Authentication code"
              hint="The 6-digit code from your authenticator app, or a recovery code."
              autoComplete="one-time-code"
              spellCheck={false}
              required
            />
            <div className="button-row">
              <Button variant="secondary" onClick={() => go({ step: 'idle' })}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" loading={disable.isPending}>
                Turn off
              </Button>
            </div>
          </Form>
        </>
      );
      break;
    case 'regenerate':
      body = (
        <>
          {stepTitle('Get new recovery codes')}
          <p className="text-small">You get {RECOVERY_CODE_COUNT} new codes; the ones you have now stop working.</p>
          {problemNotice}
          <Form form={regenerateForm} onSubmit={newCodes} aria-label="Get new recovery codes" className="settings-form">
            <TextField name="currentPassword" label="Current password" type="password" autoComplete="current-password" required />
            <div className="button-row">
              <Button variant="secondary" onClick={() => go({ step: 'idle' })}>
                Cancel
              </Button>
              <Button type="submit" loading={regenerate.isPending}>
                Create new codes
              </Button>
            </div>
          </Form>
        </>
      );
      break;
    default: {
      const remaining = status.data?.enabled ? status.data.recoveryCodesRemaining : null;
      body = enabled ? (
        <>
          <p>
            <Badge tone="success">On</Badge> Signing in needs your password and a code from your authenticator app.
          </p>
          {remaining !== null && (
            <p className="text-small">
              {remaining} of {RECOVERY_CODE_COUNT} recovery codes left.
            </p>
          )}
          {remaining !== null && remaining <= 3 && (
            <Notice tone="warning">You are running out of recovery codes. Get new ones so you can still sign in if you lose your phone.</Notice>
          )}
          {problemNotice}
          <div className="button-row">
            <Button variant="secondary" onClick={() => go({ step: 'regenerate' })}>
              Get new recovery codes
            </Button>
            <Button variant="danger" onClick={() => go({ step: 'disable' })}>
              Turn off two-factor authentication
            </Button>
          </div>
        </>
      ) : (
        <>
          <p>
            <Badge>Off</Badge> Add a second step to signing in: a 6-digit code from an authenticator app on your phone. Turning it on
            signs you out on every other device.
          </p>
          {problemNotice}
          <div className="button-row">
            <Button onClick={() => void beginSetup()} loading={start.isPending}>
              Turn on two-factor authentication
            </Button>
          </div>
        </>
      );
    }
  }

  return (
    <section className="security-panel two-factor-panel" aria-labelledby="two-factor-heading">
      <h3 id="two-factor-heading" ref={panelHeading} tabIndex={-1} className="two-factor-step-heading">
        Two-factor authentication
      </h3>
      {body}
    </section>
  );
}
