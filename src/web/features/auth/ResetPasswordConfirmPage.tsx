import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordResetConfirmForm, type PasswordResetConfirmFormValues } from '../../../contracts/auth';
import { ApiError, errorMessage } from '../../lib/api';
import { Button, ButtonLink } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Form, useZodForm } from '../../ui/Form';
import { Notice } from '../../ui/Notice';
import { PasswordChecklist } from '../../ui/PasswordChecklist';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/toast';
import { useConfirmPasswordReset } from './api/auth';
import './auth.css';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/** The page the reset e-mail links to: choose a new password with the single-use token. */
export default function ResetPasswordConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirmPasswordReset();
  const [failure, setFailure] = useState<{ message: string; linkDead: boolean } | null>(null);
  const form = useZodForm(passwordResetConfirmForm, {
    defaultValues: { password: '', confirmPassword: '' } satisfies PasswordResetConfirmFormValues,
  });
  const password = form.watch('password') ?? '';

  if (!TOKEN_SHAPE.test(token) || failure?.linkDead) {
    return (
      <div className="auth-page">
        <Card className="auth-card">
          <div className="auth-done">
            <h1>This link does not work</h1>
            <p>{failure?.message ?? 'This reset link is invalid or has expired. Please request a new one.'}</p>
            <div className="button-row">
              <ButtonLink to="/reset-password" variant="primary">
                Request a new link
              </ButtonLink>
              <ButtonLink to="/login" variant="secondary">
                Return to login
              </ButtonLink>
            </div>
          </div>
        </Card>
      </div>
    );
  }

  async function onSubmit(values: { password: string }) {
    setFailure(null);
    try {
      await confirm.mutateAsync({ token, password: values.password });
      toast.success('Password updated successfully');
      await navigate('/login', { replace: true });
    } catch (error) {
      const linkDead = error instanceof ApiError && error.code === 'invalid_token';
      setFailure({ message: errorMessage(error, 'Failed to update password'), linkDead });
      toast.error('Failed to update password');
    }
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Choose a new password</h1>
        <p className="auth-lead">After this, every device signed in to your account is signed out, and you sign in with the new password.</p>
        {failure && (
          <Notice tone="error" role="alert">
            {failure.message}
          </Notice>
        )}
        <Form form={form} onSubmit={onSubmit} aria-label="Choose a new password">
          <TextField name="password" label="New password" type="password" autoComplete="new-password" required />
          <PasswordChecklist password={password} />
          <TextField name="confirmPassword" label="Confirm new password" type="password" autoComplete="new-password" required />
          <Button type="submit" block loading={confirm.isPending}>
            Set new password
          </Button>
        </Form>
        <div className="auth-footer">
          <p>
            <Link to="/login">Return to login</Link>
          </p>
        </div>
      </Card>
    </div>
  );
}
