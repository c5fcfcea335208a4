import { useState } from 'react';
import { Link } from 'react-router';
import { passwordResetRequest } from '../../../contracts/auth';
import { errorMessage } from '../../lib/api';
import { usePublicConfig } from '../../lib/public-config';
import { Button, ButtonLink } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Form, useZodForm } from '../../ui/Form';
import { Icon } from '../../ui/Icon';
import { Notice } from '../../ui/Notice';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/toast';
import { useRequestPasswordReset } from './api/auth';
import './auth.css';

/** docs/rules.md#screens /reset-password: the e-mail form, then 'Check your email'. */
export default function ResetPasswordPage() {
  const toast = useToast();
  const { demoMode } = usePublicConfig();
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(passwordResetRequest, { defaultValues: { email: '' } });

  async function onSubmit(values: { email: string }) {
    setFailure(null);
    try {
      await request.mutateAsync(values);
      toast.success('Password reset email sent');
      setSentTo(values.email);
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to send reset email'));
      toast.error('Failed to send reset email');
    }
  }

  if (sentTo) {
    return (
      <div className="auth-page">
        <Card className="auth-card">
          <div className="auth-done">
            <Icon name="mail" size={40} />
            <h1>Check your email</h1>
            <p>
              If an account exists for <strong>{sentTo}</strong>, we have sent it a link to choose a new password. The link works
              once and expires in one hour.
            </p>
            {demoMode && (
              <Notice tone="info">
                Demo mode sends no real e-mail. Open the <Link to="/dev/mailbox">demo mailbox</Link> to find the link.
              </Notice>
            )}
            <div className="button-row">
              <Button
                variant="secondary"
                onClick={() => {
                  setSentTo(null);
                  form.reset({ email: '' });
                }}
              >
                Try another email
              </Button>
              <ButtonLink to="/login" variant="primary">
                Return to login
              </ButtonLink>
            </div>
          </div>
        </Card>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Reset your password</h1>
        <p className="auth-lead">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
        {failure && (
          <Notice tone="error" role="alert">
            {failure}
          </Notice>
        )}
        <Form form={form} onSubmit={onSubmit} aria-label="Reset password">
          <TextField name="email" label="Email" type="email" autoComplete="email" inputMode="email" required />
          <Button type="submit" block loading={request.isPending}>
            Send reset link
          </Button>
        </Form>
        <div className="auth-footer">
          <p>
            Remembered it? <Link to="/login">Return to login</Link>
          </p>
        </div>
      </Card>
    </div>
  );
}
