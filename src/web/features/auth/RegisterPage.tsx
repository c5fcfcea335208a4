import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { registerForm, type RegisterFormValues } from '../../../contracts/auth';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { CheckboxField } from '../../ui/CheckboxField';
import { Form, useZodForm } from '../../ui/Form';
import { Notice } from '../../ui/Notice';
import { PasswordChecklist } from '../../ui/PasswordChecklist';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/toast';
import { useRegister } from './api/auth';
import { useSession } from '../../lib/session';
import './auth.css';

/** docs/rules.md#screens /register: e-mail, password, confirmation, terms; then /dashboard. */
export default function RegisterPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { profile } = useSession();
  const register = useRegister();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(registerForm, {
    defaultValues: { email: '', password: '', confirmPassword: '', acceptTerms: false } satisfies RegisterFormValues,
  });
  const password = form.watch('password') ?? '';

  if (profile && !register.isPending && !register.isSuccess) return <Navigate to="/dashboard" replace />;

  async function onSubmit(values: { email: string; password: string; confirmPassword: string; acceptTerms: boolean }) {
    setFailure(null);
    try {
      await register.mutateAsync(values);
      toast.success('Account created successfully!');
      await navigate('/dashboard', { replace: true });
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to create account'));
      toast.error('Failed to create account');
    }
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Create your account</h1>
        <p className="auth-lead">Combine credit, debit, prepaid and buy-now-pay-later sources into one virtual card.</p>
        {failure && (
          <Notice tone="error" role="alert">
            {failure}
          </Notice>
        )}
        <Form form={form} onSubmit={onSubmit} aria-label="Create account">
          <TextField name="email" label="Email" type="email" autoComplete="email" inputMode="email" required />
          <TextField name="password" label="Password" type="password" autoComplete="new-password" required />
          <PasswordChecklist password={password} />
          <TextField name="confirmPassword" label="Confirm password" type="password" autoComplete="new-password" required />
          <CheckboxField
            name="acceptTerms"
            required
            label={
              <>
                I accept the{' '}
                <a href="/terms" target="_blank" rel="noopener noreferrer">
                  Terms of Service<span className="visually-hidden"> (opens in a new tab)</span>
                </a>{' '}
                and the{' '}
                <a href="/privacy" target="_blank" rel="noopener noreferrer">
                  Privacy Policy<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </>
            }
          />
          <Button type="submit" block loading={register.isPending}>
            Create account
          </Button>
        </Form>
        <div className="auth-footer">
          <p>
            Already have an account? <Link to="/login">Sign in</Link>
          </p>
        </div>
      </Card>
    </div>
  );
}
