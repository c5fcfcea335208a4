import { RecoveryCodesStep } from './RecoveryCodesStep';
import { TwoFactorSetupStep } from './TwoFactorSetupStep';
import { TwoFactorStatus } from './TwoFactorStatus';
import { DisableStep, PasswordStep, RegenerateStep } from './TwoFactorSteps';
import { useTwoFactorPanel } from './use-two-factor-panel';
import '../security-panel.css';
import '../two-factor.css';

export { groupSecret } from './two-factor-model';

// Settings → Security → Two-factor authentication (docs/decisions/014). One panel, one step at a
// time: turning it on (password again if not recent → the key and link for the app → a code →
// the recovery codes, shown once), turning it off, and new recovery codes. Focus moves to each
// step's heading, and back to the panel's heading when a step ends. The state is
// `useTwoFactorPanel`'s; each step is its own view.

export function TwoFactorPanel({ enabled }: { enabled: boolean }) {
  const state = useTwoFactorPanel(enabled);
  const { view } = state;

  let body;
  switch (view.step) {
    case 'password':
      body = <PasswordStep state={state} />;
      break;
    case 'setup':
      body = <TwoFactorSetupStep state={state} setup={view.setup} />;
      break;
    case 'codes':
      body = <RecoveryCodesStep state={state} codes={view.codes} reason={view.reason} />;
      break;
    case 'disable':
      body = <DisableStep state={state} />;
      break;
    case 'regenerate':
      body = <RegenerateStep state={state} />;
      break;
    default:
      body = <TwoFactorStatus state={state} enabled={enabled} />;
  }

  return (
    <section className="security-panel two-factor-panel" aria-labelledby="two-factor-heading">
      <h3 id="two-factor-heading" ref={state.panelHeading} tabIndex={-1} className="two-factor-step-heading">
        Two-factor authentication
      </h3>
      {body}
    </section>
  );
}
