import { useEffect, useState } from 'react';
import { reauthenticateRequest } from '../../../../contracts/auth';
import type { Card, CardReveal } from '../../../../contracts/cards';
import { groupCardNumber } from '../../../../core/cards';
import { ApiError, errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Form, useZodForm } from '../../../ui/Form';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import { PASSKEY_ICON_PATH, passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import { useHasPasskey, useReauthenticate, useReauthenticateWithPasskey, useReveal } from '../api/cards';

const REAUTH_CODES = new Set(['reauthentication_required', 'reauth_required']);
const REVEAL_FAILED = 'Could not reveal the card details. Please try again.';
/** Revealed details hide themselves after this long, so a phone left on a table shows nothing. */
export const REVEAL_VISIBLE_MS = 60_000;
export const REVEAL_HIDDEN_NOTE = 'Card details hidden again for your security.';

/**
 * Reveal (docs/rules.md#card-expiry, docs/rules.md#never-logged): asks the server for the full number, expiry and CVV; when the
 * password was entered more than five minutes ago the server says so and this asks for it again
 * (or for a passkey, when the user has one).
 * The details live only in this component's state: closing the modal unmounts it, so they are
 * hidden again whenever the modal reopens. They also hide after 60 seconds and as soon as the
 * tab is hidden (another app, a locked phone), as banking apps do.
 */
export function RevealSection({ card }: { card: Card }) {
  const reveal = useReveal();
  const reauth = useReauthenticate();
  const reauthWithPasskey = useReauthenticateWithPasskey();
  const toast = useToast();
  const [details, setDetails] = useState<CardReveal | null>(null);
  const [askPassword, setAskPassword] = useState(false);
  const offerPasskey = useHasPasskey(askPassword) && passkeysSupported();
  const [problem, setProblem] = useState<string | null>(null);
  const [autoHidden, setAutoHidden] = useState(false);
  const form = useZodForm(reauthenticateRequest, { defaultValues: { password: '' } });

  useEffect(() => {
    if (!details) return;
    const hide = () => {
      setDetails(null);
      setAutoHidden(true);
    };
    const timer = window.setTimeout(hide, REVEAL_VISIBLE_MS);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') hide();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [details]);

  async function requestReveal() {
    setProblem(null);
    setAutoHidden(false);
    try {
      setDetails(await reveal.mutateAsync(card.id));
      setAskPassword(false);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && REAUTH_CODES.has(error.code)) {
        setAskPassword(true);
        return;
      }
      setProblem(errorMessage(error, REVEAL_FAILED));
    }
  }

  async function confirmPassword({ password }: { password: string }) {
    setProblem(null);
    try {
      await reauth.mutateAsync(password);
    } catch (error) {
      form.setError('password', { message: errorMessage(error, 'That password is incorrect. Please try again.') });
      return;
    }
    form.reset({ password: '' });
    await requestReveal();
  }

  async function confirmWithPasskey() {
    setProblem(null);
    try {
      await reauthWithPasskey.mutateAsync();
    } catch (error) {
      setProblem(passkeyErrorMessage(error, REVEAL_FAILED));
      return;
    }
    await requestReveal();
  }

  async function copy(label: string, value: string) {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied`);
    } catch {
      toast.error(`Could not copy the ${label.toLowerCase()}. Select it and copy it instead.`);
    }
  }

  if (details) {
    const expiry = `${details.expiryMonth}/${details.expiryYear}`;
    // [label, as shown, as copied, the copy button's name]
    const rows: Array<[string, string, string, string]> = [
      ['Card number', groupCardNumber(details.number), details.number, 'Copy card number'],
      ['Expiry', expiry, expiry, 'Copy expiry'],
      ['CVV', details.cvv, details.cvv, 'Copy CVV'],
    ];
    return (
      <section className="reveal" aria-label="Card details">
        <dl className="reveal-list">
          {rows.map(([label, shown, copied, copyName]) => (
            <div key={label} className="reveal-row">
              <dt>{label}</dt>
              <dd>
                <span className="reveal-value">{shown}</span>
                <Button variant="ghost" size="sm" onClick={() => void copy(label, copied)} aria-label={copyName}>
                  Copy
                </Button>
              </dd>
            </div>
          ))}
        </dl>
        <p className="text-small text-muted">These details hide again after {REVEAL_VISIBLE_MS / 1000} seconds or when you leave this tab.</p>
        <Button variant="secondary" size="sm" onClick={() => setDetails(null)}>
          <Icon name="lock" size={16} />
          Hide details
        </Button>
      </section>
    );
  }

  return (
    <section className="reveal" aria-label="Reveal card details">
      {askPassword ? (
        <Form form={form} onSubmit={confirmPassword} aria-label="Confirm your password" className="reveal-form">
          <p className="text-small">For your security, enter your password again to see the full card number, expiry and CVV.</p>
          {/* Before the field: a message the field shows when it loses focus cannot move it away. */}
          {offerPasskey && (
            <Button variant="secondary" size="sm" onClick={() => void confirmWithPasskey()} loading={reauthWithPasskey.isPending} loadingText="Waiting for your passkey...">
              <Icon d={PASSKEY_ICON_PATH} size={16} />
              Use a passkey instead
            </Button>
          )}
          <TextField name="password" label="Password" type="password" required autoComplete="current-password" autoFocus />
          <div className="button-row">
            <Button variant="secondary" size="sm" onClick={() => setAskPassword(false)}>
              Cancel
            </Button>
            <Button type="submit" size="sm" loading={reauth.isPending || reveal.isPending}>
              Confirm and reveal
            </Button>
          </div>
        </Form>
      ) : (
        <Button variant="secondary" size="sm" onClick={() => void requestReveal()} loading={reveal.isPending}>
          <Icon name="lock" size={16} />
          Reveal card details
        </Button>
      )}
      {autoHidden && !askPassword && (
        <p className="text-small text-muted" role="status">
          {REVEAL_HIDDEN_NOTE}
        </p>
      )}
      {problem && (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      )}
    </section>
  );
}
