import { useState } from 'react';
import { passkeyNameForm, type Passkey } from '../../../../contracts/passkeys';
import { ApiError, errorMessage } from '../../../lib/api';
import { passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import { useZodForm } from '../../../ui/Form';
import { useToast } from '../../../ui/toast';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys';

export type PasskeyDialog =
  | { kind: 'add' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove'; passkey: Passkey }
  /** Who you are, again; then `retry` (adding with `name`, or removing `passkey`). */
  | { kind: 'reauth'; retry: { kind: 'add'; name: string } | { kind: 'remove'; passkey: Passkey } };

const isReauthRequired = (error: unknown) => error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required';

/**
 * The passkeys panel's state: the list, the dialog open (add, rename, remove, or who you are
 * again before adding or removing), the problem said in it, and the server's calls.
 */
export function usePasskeysPanel() {
  const toast = useToast();
  const list = usePasskeys();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [dialog, setDialog] = useState<PasskeyDialog | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const nameForm = useZodForm(passkeyNameForm, { defaultValues: { name: '' } });
  const supported = passkeysSupported();
  const passkeys = list.data ?? [];

  function open(next: PasskeyDialog | null) {
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

  async function retryAfterReauth(retry: Extract<PasskeyDialog, { kind: 'reauth' }>['retry']) {
    if (retry.kind === 'add') {
      setDialog({ kind: 'add' });
      await addNamed(retry.name);
    } else {
      setDialog({ kind: 'remove', passkey: retry.passkey });
      await removeNow(retry.passkey);
    }
  }

  return {
    list, passkeys, supported, dialog, problem, nameForm, open, addNamed, removeNow, renameNow, retryAfterReauth,
    adding: add.isPending,
    renaming: rename.isPending,
    removing: remove.isPending,
  };
}

export type PasskeysPanelState = ReturnType<typeof usePasskeysPanel>;
