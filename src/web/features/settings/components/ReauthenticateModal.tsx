import { useEffect, useState } from 'react';
import { reauthenticateRequest } from '../../../../contracts/auth';
import { errorMessage } from '../../../lib/api';
import { PASSKEY_ICON_PATH, passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import { Button } from '../../../ui/Button';
import { Form, useZodForm } from '../../../ui/Form';
import { Icon } from '../../../ui/Icon';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { usePasskeys, useReauthenticateWithPasskey } from '../api/passkeys';
import { useReauthenticate } from '../api/two-factor';
import '../security-panel.css';

// "Confirm it's you": the password again, or a passkey when the account has one, before an action
// the server answered 403 reauthentication_required. Once confirmed, `onConfirmed` runs the action
// again while the dialog shows it is busy; the caller closes the dialog when it is done.

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why it is asked, e.g. "For your security, enter your password again before signing out other devices." */
  description: string;
  onConfirmed: () => Promise<void>;
};

export function ReauthenticateModal({ open, onOpenChange, description, onConfirmed }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Confirm it’s you" description={description} size="sm">
      {/* Mounted while open only: each opening starts with an empty field. */}
      {open && <ConfirmForm onCancel={() => onOpenChange(false)} onConfirmed={onConfirmed} />}
    </Modal>
  );
}

function ConfirmForm({ onCancel, onConfirmed }: { onCancel: () => void; onConfirmed: () => Promise<void> }) {
  const reauth = useReauthenticate();
  const reauthWithPasskey = useReauthenticateWithPasskey();
  const supported = passkeysSupported();
  const passkeys = usePasskeys({ enabled: supported });
  const form = useZodForm(reauthenticateRequest, { defaultValues: { password: '' } });
  const [problem, setProblem] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);

  // The field the dialog is for takes the focus when it opens (the dialog would give it to Close).
  useEffect(() => form.setFocus('password'), [form]);

  async function retry() {
    setRetrying(true);
    try {
      await onConfirmed();
    } finally {
      setRetrying(false);
    }
  }

  async function withPassword({ password }: { password: string }) {
    setProblem(null);
    try {
      await reauth.mutateAsync(password);
    } catch (error) {
      // Focus back on the field: a screen reader then reads its error, and the user can type again.
      form.setError('password', { message: errorMessage(error, 'That password is incorrect. Please try again.') }, { shouldFocus: true });
      return;
    }
    await retry();
  }

  async function withPasskey() {
    setProblem(null);
    try {
      await reauthWithPasskey.mutateAsync();
    } catch (error) {
      setProblem(passkeyErrorMessage(error, 'Could not confirm with your passkey. Please try again.'));
      return;
    }
    await retry();
  }

  return (
    <>
      {problem && (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      )}
      {/* Before the field: a message the field shows when it loses focus cannot move it away. */}
      {supported && (passkeys.data?.length ?? 0) > 0 && (
        <Button variant="secondary" block onClick={() => void withPasskey()} loading={reauthWithPasskey.isPending} loadingText="Waiting for your passkey...">
          <Icon d={PASSKEY_ICON_PATH} size={18} />
          Use a passkey instead
        </Button>
      )}
      <Form form={form} onSubmit={withPassword} aria-label="Confirm your password">
        <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
        <div className="button-row modal-form-buttons">
          <Button variant="secondary" onClick={onCancel} disabled={retrying}>
            Cancel
          </Button>
          <Button type="submit" loading={reauth.isPending || retrying}>
            Continue
          </Button>
        </div>
      </Form>
    </>
  );
}
