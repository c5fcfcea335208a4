import type { RefObject } from 'react';
import { RECOVERY_CODE_COUNT } from '../../../../contracts/two-factor';
import { Button } from '../../../ui/Button';
import { Form } from '../../../ui/Form';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import type { TwoFactorPanelState } from './use-two-factor-panel';

// The two-factor panel's small steps: the password again, turning it off, new recovery codes.

/** A step's heading; focus moves to it when the step opens. */
export function StepTitle({ headingRef, children }: { headingRef: RefObject<HTMLHeadingElement | null>; children: string }) {
  return (
    <h4 ref={headingRef} tabIndex={-1} className="two-factor-step-heading">
      {children}
    </h4>
  );
}

export function ProblemNotice({ problem }: { problem: string | null }) {
  return (
    problem && (
      <Notice tone="error" role="alert">
        {problem}
      </Notice>
    )
  );
}

function CancelButton({ state }: { state: TwoFactorPanelState }) {
  return (
    <Button variant="secondary" onClick={() => state.go({ step: 'idle' })}>
      Cancel
    </Button>
  );
}

export function PasswordStep({ state }: { state: TwoFactorPanelState }) {
  return (
    <>
      <StepTitle headingRef={state.stepHeading}>Confirm your password</StepTitle>
      <p className="text-small">For your security, enter your password again before setting up two-factor authentication.</p>
      <Form form={state.passwordForm} onSubmit={state.confirmPassword} aria-label="Confirm your password" className="settings-form">
        <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
        <div className="button-row">
          <CancelButton state={state} />
          <Button type="submit" loading={state.pending.password}>
            Continue
          </Button>
        </div>
      </Form>
    </>
  );
}

export function DisableStep({ state }: { state: TwoFactorPanelState }) {
  return (
    <>
      <StepTitle headingRef={state.stepHeading}>Turn off two-factor authentication</StepTitle>
      <p className="text-small">Signing in will need only your password. Your recovery codes stop working.</p>
      <ProblemNotice problem={state.problem} />
      <Form form={state.disableForm} onSubmit={state.turnOff} aria-label="Turn off two-factor authentication" className="settings-form">
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
          <CancelButton state={state} />
          <Button type="submit" variant="danger" loading={state.pending.disable}>
            Turn off
          </Button>
        </div>
      </Form>
    </>
  );
}

export function RegenerateStep({ state }: { state: TwoFactorPanelState }) {
  return (
    <>
      <StepTitle headingRef={state.stepHeading}>Get new recovery codes</StepTitle>
      <p className="text-small">You get {RECOVERY_CODE_COUNT} new codes; the ones you have now stop working.</p>
      <ProblemNotice problem={state.problem} />
      <Form form={state.regenerateForm} onSubmit={state.newCodes} aria-label="Get new recovery codes" className="settings-form">
        <TextField name="currentPassword" label="Current password" type="password" autoComplete="current-password" required />
        <div className="button-row">
          <CancelButton state={state} />
          <Button type="submit" loading={state.pending.regenerate}>
            Create new codes
          </Button>
        </div>
      </Form>
    </>
  );
}
