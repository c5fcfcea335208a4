import type { TwoFactorSetup } from '../../../../contracts/two-factor';
import { Button } from '../../../ui/Button';
import { Form } from '../../../ui/Form';
import { TextField } from '../../../ui/TextField';
import { SetupQrCode } from './SetupQrCode';
import { ProblemNotice, StepTitle } from './TwoFactorSteps';
import { groupSecret } from './two-factor-model';
import type { TwoFactorPanelState } from './use-two-factor-panel';

/** Turning it on: the QR code, the key and the link for the app, then a code from it. */
export function TwoFactorSetupStep({ state, setup }: { state: TwoFactorPanelState; setup: TwoFactorSetup }) {
  return (
    <>
      <StepTitle headingRef={state.stepHeading}>Add PayWeave to your authenticator app</StepTitle>
      <ol className="two-factor-steps">
        <li>
          In your authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), add an account and scan
          this QR code, or enter the key below by hand. It is time-based, 6 digits.
          <SetupQrCode uri={setup.otpauthUri} />
          <div className="two-factor-copy-row">
            <code className="two-factor-secret">
              {groupSecret(setup.secret)}
            </code>
            <Button variant="ghost" size="sm" onClick={() => void state.copy('Setup key', setup.secret)}>
              Copy key
            </Button>
          </div>
          <p className="text-small text-muted">Apps that accept a setup link can use this one instead:</p>
          <div className="two-factor-copy-row">
            <code className="two-factor-uri">
              {setup.otpauthUri}
            </code>
            <Button variant="ghost" size="sm" onClick={() => void state.copy('Setup link', setup.otpauthUri)}>
              Copy link
            </Button>
          </div>
        </li>
        <li>Enter the 6-digit code the app now shows for PayWeave.</li>
      </ol>
      <ProblemNotice problem={state.problem} />
      <Form form={state.codeForm} onSubmit={state.confirmCode} aria-label="Confirm two-factor authentication" className="settings-form">
        <TextField name="code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code" spellCheck={false} required />
        <div className="button-row">
          <Button variant="secondary" onClick={() => state.go({ step: 'idle' })}>
            Cancel
          </Button>
          <Button type="submit" loading={state.pending.enable}>
            Verify and turn on
          </Button>
        </div>
      </Form>
    </>
  );
}
