import { useState } from 'react';
import { changeEmailRequest } from '../../../../contracts/auth';
import type { Profile } from '../../../../contracts/me';
import { ApiError, errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Form, useZodForm } from '../../../ui/Form';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import { useChangeEmail } from '../api/account';
import { CloseAccountPanel } from './CloseAccountPanel';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** Settings → Profile: the account's e-mail, changed with the current password (docs/rules.md#reauthentication). */
export function ProfileTab({ profile }: { profile: Profile }) {
  const toast = useToast();
  const change = useChangeEmail();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(changeEmailRequest, { defaultValues: { email: profile.email, currentPassword: '' } });

  async function onSubmit(values: { email: string; currentPassword: string }) {
    setFailure(null);
    try {
      const updated = await change.mutateAsync(values);
      toast.success('Email updated successfully');
      form.reset({ email: updated.email, currentPassword: '' });
    } catch (error) {
      // A wrong current password is said on its field, and goes once it is typed again; not in a
      // notice that would still say so after the user has corrected it.
      if (error instanceof ApiError && error.code === 'wrong_password') form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
      else setFailure(errorMessage(error, 'Failed to update email'));
      toast.error('Failed to update email');
    }
  }

  return (
    <div className="settings-panel">
      <h2>Profile</h2>
      <dl className="settings-facts">
        <div>
          <dt>Email</dt>
          <dd>{profile.email}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd>{DATE.format(new Date(profile.createdAt))}</dd>
        </div>
      </dl>
      <h3>Change email</h3>
      {failure && (
        <Notice tone="error" role="alert">
          {failure}
        </Notice>
      )}
      <Form form={form} onSubmit={onSubmit} aria-label="Change email" className="settings-form">
        <TextField name="email" label="New email" type="email" autoComplete="email" inputMode="email" required />
        <TextField
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          hint="For your security, confirm it is you."
          required
        />
        <div className="button-row">
          <Button type="submit" loading={change.isPending}>
            Update email
          </Button>
        </div>
      </Form>
      <CloseAccountPanel />
    </div>
  );
}
