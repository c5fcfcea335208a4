import { Button } from '../../../ui/Button';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { Form } from '../../../ui/Form';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { ReauthenticateModal } from './ReauthenticateModal';
import type { PasskeysPanelState } from './use-passkeys-panel';

/** The passkeys panel's dialogs: a name (adding or renaming), who you are again, and removing. */
export function PasskeyDialogs({ state }: { state: PasskeysPanelState }) {
  const { dialog, problem, open } = state;
  const problemNotice = problem && (
    <Notice tone="error" role="alert">
      {problem}
    </Notice>
  );

  return (
    <>
      <Modal
        open={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        onOpenChange={(isOpen) => !isOpen && open(null)}
        title={dialog?.kind === 'rename' ? 'Rename passkey' : 'Add a passkey'}
        description={dialog?.kind === 'add' ? 'Name it after the device or password manager that keeps it. Your browser then asks you to create the passkey.' : undefined}
        size="sm"
        dismissible={!state.adding}
      >
        {problemNotice}
        <Form
          form={state.nameForm}
          onSubmit={({ name }) => (dialog?.kind === 'rename' ? state.renameNow(dialog.passkey, name) : state.addNamed(name))}
          aria-label={dialog?.kind === 'rename' ? 'Rename passkey' : 'Add a passkey'}
        >
          <TextField name="name" label="Passkey name" hint="For example: Work laptop, or iPhone." autoComplete="off" required maxLength={50} />
          <div className="button-row modal-form-buttons">
            <Button variant="secondary" onClick={() => open(null)} disabled={state.adding}>
              Cancel
            </Button>
            <Button type="submit" loading={state.adding || state.renaming} loadingText={dialog?.kind === 'add' ? 'Waiting for your passkey...' : undefined}>
              {dialog?.kind === 'rename' ? 'Save' : 'Continue'}
            </Button>
          </div>
        </Form>
      </Modal>

      <ReauthenticateModal
        open={dialog?.kind === 'reauth'}
        onOpenChange={(isOpen) => !isOpen && open(null)}
        description={
          dialog?.kind === 'reauth' && dialog.retry.kind === 'remove'
            ? 'For your security, enter your password again before removing a passkey.'
            : 'For your security, enter your password again before adding a passkey.'
        }
        onConfirmed={async () => {
          if (dialog?.kind === 'reauth') await state.retryAfterReauth(dialog.retry);
        }}
      />

      <ConfirmModal
        open={dialog?.kind === 'remove'}
        onOpenChange={(isOpen) => !isOpen && open(null)}
        title={dialog?.kind === 'remove' ? `Remove “${dialog.passkey.name}”?` : 'Remove passkey?'}
        confirmLabel="Remove passkey"
        tone="danger"
        busy={state.removing}
        onConfirm={() => dialog?.kind === 'remove' && void state.removeNow(dialog.passkey)}
      >
        <p>You will no longer be able to sign in with this passkey. Your password keeps working.</p>
        {problemNotice}
      </ConfirmModal>
    </>
  );
}
