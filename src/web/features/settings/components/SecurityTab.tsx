import { useState } from 'react';
import { changePasswordForm, type ChangePasswordFormValues } from '../../../../contracts/auth';
import { ApiError, errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Form, useZodForm } from '../../../ui/Form';
import { Notice } from '../../../ui/Notice';
import { PasswordChecklist } from '../../../ui/PasswordChecklist';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import { useSession } from '../../../lib/session';
import { useChangePassword } from '../api/account';
import { PasskeysPanel } from './PasskeysPanel';
import { SecurityActivityPanel } from './SecurityActivityPanel';
import { SignedInDevicesPanel } from './SignedInDevicesPanel';
import { TwoFactorPanel } from './TwoFactorPanel';

const EMPTY: ChangePasswordFormValues = { currentPassword: '', newPassword: '', confirmNewPassword: '' };

/** Settings → Security: change the password with the live checklist (docs/rules.md#passwords), two-factor sign-in, passkeys, signed-in devices and recent security activity. */
export function SecurityTab() {
  const { profile } = useSession();
  const toast = useToast();
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(changePasswordForm, { defaultValues: EMPTY });
  const newPassword = form.watch('newPassword') ?? '';

  async function onSubmit(values: { currentPassword: string; newPassword: string }) {
    setFailure(null);
    try {
      await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast.success('Password updated successfully');
      form.reset(EMPTY);
    } catch (error) {
      // A wrong current password is said on its field, and goes once it is typed again; not in a
      // notice that would still say so after the user has corrected it.
      if (error instanceof ApiError && error.code === 'wrong_password') form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
      else setFailure(errorMessage(error, 'Failed to update password'));
      toast.error('Failed to update password');
    }
  }

  return (
    <div className="settings-panel">
      <h2>Security</h2>
      <p className="text-muted">Changing your password signs you out on every other device.</p>
      <h3>Change password</h3>
      {failure && (
        <Notice tone="error" role="alert">
          {failure}
        </Notice>
      )}
      <Form form={form} onSubmit={onSubmit} aria-label="Change password" className="settings-form">
        <TextField name="currentPassword" label="Current password" type="password" autoComplete="current-password" required />
        <TextField name="newPassword" label="New password" type="password" autoComplete="new-password" required />
        <PasswordChecklist password={newPassword} />
        <TextField name="confirmNewPassword" label="Confirm new password" type="password" autoComplete="new-password" required />
        <div className="button-row">
          <Button type="submit" loading={change.isPending}>
            Update password
          </Button>
        </div>
      </Form>
      <TwoFactorPanel enabled={profile?.twoFactorEnabled ?? false} />
      <PasskeysPanel />
      <SignedInDevicesPanel />
      <SecurityActivityPanel />
    </div>
  );
}
