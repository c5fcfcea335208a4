import { ConfirmModal } from '../../../ui/ConfirmModal';
import { ReauthenticateModal } from './ReauthenticateModal';
import type { SignedInDevicesPanelState } from './use-signed-in-devices-panel';

/** Signing out, confirmed first, and who you are again when the server asks. */
export function SignedInDeviceDialogs({ state }: { state: SignedInDevicesPanelState }) {
  const { dialog, setDialog } = state;
  return (
    <>
      <ConfirmModal
        open={dialog?.step === 'confirm'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        title={dialog?.action.kind === 'one' ? `Sign out ${dialog.action.session.device}?` : 'Sign out all other devices?'}
        confirmLabel={dialog?.action.kind === 'one' ? 'Sign out device' : 'Sign out other devices'}
        tone="danger"
        busy={state.busy}
        onConfirm={() => dialog && void state.confirm(dialog.action)}
      >
        {dialog?.action.kind === 'one' ? (
          <p>
            {dialog.action.session.device}
            {dialog.action.session.ipAddress ? ` (${dialog.action.session.ipAddress})` : ''} will have to sign in again to use your account. This device stays
            signed in.
          </p>
        ) : (
          <p>Every other browser and phone signed in to your account will have to sign in again. This device stays signed in.</p>
        )}
      </ConfirmModal>

      <ReauthenticateModal
        open={dialog?.step === 'reauth'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        description={
          dialog?.action.kind === 'one'
            ? 'For your security, enter your password again before signing out a device.'
            : 'For your security, enter your password again before signing out your other devices.'
        }
        onConfirmed={() => (dialog ? state.afterReauthentication(dialog.action) : Promise.resolve())}
      />
    </>
  );
}
