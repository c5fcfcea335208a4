import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../lib/api';
import { Button, ButtonLink } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Notice } from '../../ui/Notice';
import { useUnlockTwoFactor } from './api/auth';
import './auth.css';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * The page the "two-factor codes paused" e-mail links to (decision 083). Nothing happens on
 * opening it (mail scanners open links too): the owner presses the button.
 */
export default function UnlockTwoFactorPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unlock = useUnlockTwoFactor();
  const [outcome, setOutcome] = useState<{ done: boolean; message: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (!TOKEN_SHAPE.test(token) || (outcome && !outcome.done)) {
    return (
      <div className="auth-page">
        <Card className="auth-card">
          <div className="auth-done">
            <h1>This link does not work</h1>
            <p>{outcome?.message ?? 'This unlock link is invalid or has expired. Sign in with a recovery code instead.'}</p>
            <div className="button-row">
              <ButtonLink to="/login" variant="primary">
                Go to sign in
              </ButtonLink>
            </div>
          </div>
        </Card>
      </div>
    );
  }

  if (outcome?.done) {
    return (
      <div className="auth-page">
        <Card className="auth-card">
          <div className="auth-done">
            <h1>Two-factor codes unlocked</h1>
            <p>{outcome.message} If you did not cause the wrong codes, someone knows your password: change it after you sign in.</p>
            <div className="button-row">
              <ButtonLink to="/login" variant="primary">
                Sign in
              </ButtonLink>
            </div>
          </div>
        </Card>
      </div>
    );
  }

  async function onUnlock() {
    setFailure(null);
    try {
      const { message } = await unlock.mutateAsync({ token });
      setOutcome({ done: true, message });
    } catch (error) {
      const linkDead = error instanceof ApiError && error.code === 'invalid_token';
      setOutcome(linkDead ? { done: false, message: errorMessage(error, 'This unlock link does not work.') } : null);
      if (!linkDead) setFailure(errorMessage(error, 'Could not unlock. Please try again.'));
    }
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Unlock two-factor codes</h1>
        <p className="auth-lead">
          After too many incorrect codes, codes from your authenticator app were paused. Unlock them to sign in with your app again.
        </p>
        {failure && (
          <Notice tone="error" role="alert">
            {failure}
          </Notice>
        )}
        <Button type="button" block loading={unlock.isPending} onClick={() => void onUnlock()}>
          Unlock two-factor codes
        </Button>
      </Card>
    </div>
  );
}
