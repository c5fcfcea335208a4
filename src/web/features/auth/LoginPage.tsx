import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { loginRequest } from '../../../contracts/auth';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { CheckboxField } from '../../ui/CheckboxField';
import { Form, useZodForm } from '../../ui/Form';
import { Notice } from '../../ui/Notice';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/toast';
import { safeNextPath, useLogin } from './api/auth';
import { useSession } from './api/session';
import './auth.css';

/** Spec §2 /login: e-mail, password, remember me; then the page asked for, or /dashboard. */
export default function LoginPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const navigate = useNavigate();
  const toast = useToast();
  const { profile } = useSession();
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(loginRequest, { defaultValues: { email: '', password: '', rememberMe: false } });

  // Auth screens are for visitors (spec §6): a signed-in user goes on to the app.
  if (profile && !login.isPending && !login.isSuccess) return <Navigate to={next} replace />;

  async function onSubmit(values: { email: string; password: string; rememberMe: boolean }) {
    setFailure(null);
    try {
      await login.mutateAsync(values);
      toast.success('Logged in successfully!');
      await navigate(next, { replace: true });
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to log in'));
      toast.error('Failed to log in');
      form.resetField('password');
    }
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Sign in</h1>
        <p className="auth-lead">Welcome back. Sign in to combine your payment sources into one card.</p>
        {failure && (
          <Notice tone="error" role="alert" className="form-alert">
            {failure}
          </Notice>
        )}
        <Form form={form} onSubmit={onSubmit} aria-label="Sign in">
          <TextField name="email" label="Email" type="email" autoComplete="email" inputMode="email" required />
          <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
          <div className="auth-row">
            <CheckboxField name="rememberMe" label="Remember me" hint="Stay signed in on this device for 30 days." />
            <Link to="/reset-password">Forgot password?</Link>
          </div>
          <Button type="submit" block loading={login.isPending}>
            Sign in
          </Button>
        </Form>
        <div className="auth-footer">
          <p>
            Don’t have an account? <Link to="/register">Create an account</Link>
          </p>
        </div>
      </Card>
    </div>
  );
}
