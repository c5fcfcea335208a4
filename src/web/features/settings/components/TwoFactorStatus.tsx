import { RECOVERY_CODE_COUNT } from '../../../../contracts/two-factor';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { ProblemNotice } from './TwoFactorSteps';
import type { TwoFactorPanelState } from './use-two-factor-panel';

/** The panel at rest: on (codes left, new codes, turning it off) or off (turning it on). */
export function TwoFactorStatus({ state, enabled }: { state: TwoFactorPanelState; enabled: boolean }) {
  const { remaining } = state;
  return enabled ? (
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
      <ProblemNotice problem={state.problem} />
      <div className="button-row">
        <Button variant="secondary" onClick={() => state.go({ step: 'regenerate' })}>
          Get new recovery codes
        </Button>
        <Button variant="danger" onClick={() => state.go({ step: 'disable' })}>
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
      <ProblemNotice problem={state.problem} />
      <div className="button-row">
        <Button onClick={() => void state.beginSetup()} loading={state.pending.start}>
          Turn on two-factor authentication
        </Button>
      </div>
    </>
  );
}
