import { Button } from '../../../ui/Button';
import { CheckboxField } from '../../../ui/CheckboxField';
import { Form } from '../../../ui/Form';
import { StepTitle } from './TwoFactorSteps';
import type { TwoFactorPanelState } from './use-two-factor-panel';

/** The recovery codes, shown once, and the box that says they were saved. */
export function RecoveryCodesStep({ state, codes, reason }: { state: TwoFactorPanelState; codes: string[]; reason: 'enabled' | 'regenerated' }) {
  return (
    <>
      <StepTitle headingRef={state.stepHeading}>Save your recovery codes</StepTitle>
      <p className="text-small">
        If you lose your phone, each of these codes lets you sign in once instead of a code from the app. Keep them somewhere safe,
        such as a password manager. They will not be shown again.
      </p>
      {reason === 'regenerated' && <p className="text-small">Your previous recovery codes no longer work.</p>}
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <Button variant="secondary" size="sm" onClick={() => void state.copy('Recovery codes', codes.join('\n'))}>
          Copy codes
        </Button>
      </div>
      <Form form={state.confirmForm} onSubmit={() => state.go({ step: 'idle' })} aria-label="Confirm you saved the recovery codes" className="settings-form">
        <CheckboxField name="saved" label="I have saved these codes" required />
        <div className="button-row">
          <Button type="submit">Done</Button>
        </div>
      </Form>
    </>
  );
}
