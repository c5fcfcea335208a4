import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { PasskeyDialogs } from './PasskeyDialogs';
import { PasskeyItem } from './PasskeyItem';
import { usePasskeysPanel } from './use-passkeys-panel';
import '../security-panel.css';

// Settings → Security → Passkeys (docs/decisions/090, 091): the account's passkeys with when
// each was added and last used; Add (a name, then the device's own prompt), Rename, and Remove
// after a confirmation. Adding and removing ask who you are again when the password (or a
// passkey) was not entered in the last 5 minutes, then carry on. The state is
// `usePasskeysPanel`'s; each row and the dialogs are their own views.

export function PasskeysPanel() {
  const state = usePasskeysPanel();
  const { list, passkeys, open } = state;

  return (
    <section className="security-panel" aria-labelledby="passkeys-heading">
      <h3 id="passkeys-heading">Passkeys</h3>
      <p className="text-muted">
        Sign in with your fingerprint, face or device PIN instead of your password. A passkey also confirms it is you before your card details are shown.
      </p>
      {list.isError && (
        <Notice tone="error" role="alert">
          {errorMessage(list.error, 'Could not load your passkeys.')}{' '}
          <Button variant="ghost" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Notice>
      )}
      {list.isSuccess &&
        (passkeys.length === 0 ? (
          <p className="passkeys-empty">You have no passkeys yet.</p>
        ) : (
          <ul className="security-list" aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <PasskeyItem key={passkey.id} passkey={passkey} open={open} />
            ))}
          </ul>
        ))}
      {state.supported ? (
        <div className="button-row">
          <Button variant="secondary" onClick={() => open({ kind: 'add' })}>
            Add a passkey
          </Button>
        </div>
      ) : (
        <p className="text-small text-muted">This browser cannot create passkeys.</p>
      )}

      <PasskeyDialogs state={state} />
    </section>
  );
}
