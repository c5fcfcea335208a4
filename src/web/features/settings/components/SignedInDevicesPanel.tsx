import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { SignedInDeviceDialogs } from './SignedInDeviceDialogs';
import { SignedInDeviceItem } from './SignedInDeviceItem';
import { useSignedInDevicesPanel } from './use-signed-in-devices-panel';
import '../security-panel.css';

// Settings → Security → Signed-in devices (docs/decisions/164): where the account is signed in,
// this device marked, the newest activity first; Sign out for each other device and for all of
// them, after a confirmation, asking who you are again when the password was not entered in the
// last 5 minutes, then carrying on. The state is `useSignedInDevicesPanel`'s; each row and the
// dialogs are their own views.

export function SignedInDevicesPanel() {
  const state = useSignedInDevicesPanel();
  const { list, sessions, others, setDialog } = state;

  return (
    <section className="security-panel" aria-labelledby="devices-heading">
      <h3 id="devices-heading" ref={state.heading} tabIndex={-1}>
        Signed-in devices
      </h3>
      <p className="text-muted">
        Where your account is signed in now. If you do not recognise a device, or lost one, sign it out and change your password.
      </p>
      {list.isPending && <Spinner label="Loading your signed-in devices" showLabel size="sm" />}
      {list.isError && (
        <Notice tone="error" role="alert">
          {errorMessage(list.error, 'Could not load your signed-in devices.')}{' '}
          <Button variant="ghost" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Notice>
      )}
      {list.isSuccess && (
        <>
          <ul className="security-list" aria-label="Your signed-in devices">
            {sessions.map((session) => (
              <SignedInDeviceItem key={session.id} session={session} onSignOut={() => setDialog({ step: 'confirm', action: { kind: 'one', session } })} />
            ))}
          </ul>
          {others.length > 0 ? (
            <div className="button-row">
              <Button variant="secondary" onClick={() => setDialog({ step: 'confirm', action: { kind: 'others' } })}>
                Sign out all other devices
              </Button>
            </div>
          ) : (
            <p className="text-small text-muted">No other device is signed in.</p>
          )}
        </>
      )}

      <SignedInDeviceDialogs state={state} />
    </section>
  );
}
