import { useState } from 'react';
import { passkeyNameForm, type Passkey } from '../../../../contracts/passkeys';
import { ApiError, errorMessage } from '../../../lib/api';
import { PASSKEY_ICON_PATH, passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { Form, useZodForm } from '../../../ui/Form';
import { Icon } from '../../../ui/Icon';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import { ReauthenticateModal } from './ReauthenticateModal';
import '../security-panel.css';

// Settings → Security → Passkeys (docs/decisions/090, 091): the account's passkeys with when
// each was added and last used; Add (a name, then the device's own prompt), Rename, and Remove
// after a confirmation. Adding and removing ask who you are again when the password (or a
// passkey) was not entered in the last 5 minutes, then carry on.

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

type Dialog =
  | { kind: 'add' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove'; passkey: Passkey }
  /** Who you are, again; then `retry` (adding with `name`, or removing `passkey`). */
  | { kind: 'reauth'; retry: { kind: 'add'; name: string } | { kind: 'remove'; passkey: Passkey } };

const isReauthRequired = (error: unknown) => error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required';

export function PasskeysPanel() {
  const toast = useToast();
  const list = usePasskeys();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const nameForm = useZodForm(passkeyNameForm, { defaultValues: { name: '' } });
  const supported = passkeysSupported();
  const passkeys = list.data ?? [];

  function open(next: Dialog | null) {
    setProblem(null);
    if (next?.kind === 'add') nameForm.reset({ name: '' });
    if (next?.kind === 'rename') nameForm.reset({ name: next.passkey.name });
    setDialog(next);
  }

  async function addNamed(name: string) {
    setProblem(null);
    try {
      await add.mutateAsync(name);
      toast.success('Passkey added');
      setDialog(null);
    } catch (error) {
      if (isReauthRequired(error)) return open({ kind: 'reauth', retry: { kind: 'add', name } });
      setProblem(passkeyErrorMessage(error, 'Could not add the passkey. Please try again.'));
    }
  }

  async function removeNow(passkey: Passkey) {
    setProblem(null);
    try {
      await remove.mutateAsync(passkey.id);
      toast.success('Passkey removed');
      setDialog(null);
    } catch (error) {
      if (isReauthRequired(error)) return open({ kind: 'reauth', retry: { kind: 'remove', passkey } });
      setProblem(errorMessage(error, 'Could not remove the passkey. Please try again.'));
    }
  }

  async function renameNow(passkey: Passkey, name: string) {
    setProblem(null);
    try {
      await rename.mutateAsync({ id: passkey.id, name });
      toast.success('Passkey renamed');
      setDialog(null);
    } catch (error) {
      setProblem(errorMessage(error, 'Could not rename the passkey. Please try again.'));
    }
  }

  async function retryAfterReauth(retry: Extract<Dialog, { kind: 'reauth' }>['retry']) {
    if (retry.kind === 'add') {
      setDialog({ kind: 'add' });
      await addNamed(retry.name);
    } else {
      setDialog({ kind: 'remove', passkey: retry.passkey });
      await removeNow(retry.passkey);
    }
  }

  const problemNotice = problem && (
    <Notice tone="error" role="alert">
      {problem}
    </Notice>
  );

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
              <li key={passkey.id} className="security-item">
                <Icon d={PASSKEY_ICON_PATH} size={20} className="security-item-icon" />
                <div className="security-item-text">
                  <p className="security-item-name">
                    {passkey.name} {passkey.backedUp && <Badge tone="info">Synced</Badge>}
                  </p>
                  <p className="text-small text-muted">
                    Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : 'Never used'}
                  </p>
                </div>
                <div className="security-item-actions">
                  <Button variant="ghost" size="sm" onClick={() => open({ kind: 'rename', passkey })} aria-label={`Rename ${passkey.name}`}>
                    Rename
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => open({ kind: 'remove', passkey })} aria-label={`Remove ${passkey.name}`}>
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ))}
      {supported ? (
        <div className="button-row">
          <Button variant="secondary" onClick={() => open({ kind: 'add' })}>
            Add a passkey
          </Button>
        </div>
      ) : (
        <p className="text-small text-muted">This browser cannot create passkeys.</p>
      )}

      <Modal
        open={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        onOpenChange={(isOpen) => !isOpen && open(null)}
        title={dialog?.kind === 'rename' ? 'Rename passkey' : 'Add a passkey'}
        description={dialog?.kind === 'add' ? 'Name it after the device or password manager that keeps it. Your browser then asks you to create the passkey.' : undefined}
        size="sm"
        dismissible={!add.isPending}
      >
        {problemNotice}
        <Form
          form={nameForm}
          onSubmit={({ name }) => (dialog?.kind === 'rename' ? renameNow(dialog.passkey, name) : addNamed(name))}
          aria-label={dialog?.kind === 'rename' ? 'Rename passkey' : 'Add a passkey'}
        >
          <TextField name="name" label="Passkey name" hint="For example: Work laptop, or iPhone." autoComplete="off" required maxLength={50} />
          <div className="button-row modal-form-buttons">
            <Button variant="secondary" onClick={() => open(null)} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending || rename.isPending} loadingText={dialog?.kind === 'add' ? 'Waiting for your passkey...' : undefined}>
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
          if (dialog?.kind === 'reauth') await retryAfterReauth(dialog.retry);
        }}
      />

      <ConfirmModal
        open={dialog?.kind === 'remove'}
        onOpenChange={(isOpen) => !isOpen && open(null)}
        title={dialog?.kind === 'remove' ? `Remove “${dialog.passkey.name}”?` : 'Remove passkey?'}
        confirmLabel="Remove passkey"
        tone="danger"
        busy={remove.isPending}
        onConfirm={() => dialog?.kind === 'remove' && void removeNow(dialog.passkey)}
      >
        <p>You will no longer be able to sign in with this passkey. Your password keeps working.</p>
        {problem && (
          <Notice tone="error" role="alert">
            {problem}
          </Notice>
        )}
      </ConfirmModal>
    </section>
  );
}
