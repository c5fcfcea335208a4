import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { loginRequest } from '../../../contracts/auth';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Icon } from '../../ui/Icon';
import { CheckboxField } from '../../ui/CheckboxField';
import { Form, useZodForm } from '../../ui/Form';
import { Notice } from '../../ui/Notice';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/toast';
import { PASSKEY_ICON_PATH, passkeyErrorMessage, passkeysSupported } from '../../lib/passkeys';
import { safeNextPath, useLogin, usePasskeySignIn } from './api/auth';
import { useSession } from '../../lib/session';
import { TwoFactorStep } from './TwoFactorStep';
import './auth.css';

/**
 * docs/rules.md#screens /login: e-mail, password, remember me; then the page asked for, or /dashboard. With
 * two-factor sign-in on, a right password leads to the code step (docs/decisions/014).
 */
export default function LoginPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const navigate = useNavigate();
  const toast = useToast();
  const { profile } = useSession();
  const login = useLogin();
  const passkeySignIn = usePasskeySignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<{ id: string; passkeyAvailable: boolean } | null>(null);
  const challengeId = challenge?.id ?? null;
  // Set when the user comes back from the code step: focus returns to this step's heading.
  const [returned, setReturned] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useZodForm(loginRequest, { defaultValues: { email: '', password: '', rememberMe: false } });

  useEffect(() => {
    if (returned && challengeId === null) heading.current?.focus();
  }, [returned, challengeId]);

  // Auth screens are for visitors (docs/rules.md#plans): a signed-in user goes on to the app.
  if (profile && !login.isPending && !login.isSuccess && !passkeySignIn.isPending && !passkeySignIn.isSuccess) return <Navigate to={next} replace />;

  async function onSubmit(values: { email: string; password: string; rememberMe: boolean }) {
    setFailure(null);
    try {
      const result = await login.mutateAsync(values);
      if ('twoFactorRequired' in result) {
        form.resetField('password');
        setChallenge({ id: result.challengeId, passkeyAvailable: result.passkeyAvailable === true });
        return;
      }
      await signedIn();
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to log in'));
      toast.error('Failed to log in');
      form.resetField('password');
    }
  }

  async function signInWithPasskey() {
    setFailure(null);
    try {
      await passkeySignIn.mutateAsync({ rememberMe: form.getValues('rememberMe') ?? false });
      await signedIn();
    } catch (error) {
      setFailure(passkeyErrorMessage(error, 'Failed to log in'));
    }
  }

  async function signedIn() {
    toast.success('Logged in successfully!');
    await navigate(next, { replace: true });
  }

  if (challengeId) {
    return (
      <TwoFactorStep
        challengeId={challengeId}
        passkeyAvailable={challenge?.passkeyAvailable ?? false}
        onSignedIn={signedIn}
        onRestart={(message) => {
          setFailure(message);
          setChallenge(null);
          setReturned(true);
        }}
      />
    );
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1 ref={heading} tabIndex={-1} className="auth-step-heading">
          Sign in
        </h1>
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
        {passkeysSupported() && (
          <div className="auth-passkey">
            <p className="auth-divider">
              <span>or</span>
            </p>
            <Button variant="secondary" block onClick={() => void signInWithPasskey()} loading={passkeySignIn.isPending} loadingText="Waiting for your passkey...">
              <Icon d={PASSKEY_ICON_PATH} size={18} />
              Sign in with a passkey
            </Button>
          </div>
        )}
        <div className="auth-footer">
          <p>
            Don’t have an account? <Link to="/register">Create an account</Link>
          </p>
        </div>
      </Card>
    </div>
  );
}
