import { useEffect, useState } from 'react';
import { reauthenticateRequest } from '../../../../contracts/auth';
import type { Card, CardReveal } from '../../../../contracts/cards';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../ui/Form';
import { useToast } from '../../../ui/toast';
import { passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import { useHasPasskey, useReauthenticate, useReauthenticateWithPasskey, useReveal } from '../api/cards';

const REAUTH_CODES = new Set(['reauthentication_required', 'reauth_required']);
const REVEAL_FAILED = 'Could not reveal the card details. Please try again.';
/** Revealed details hide themselves after this long, so a phone left on a table shows nothing. */
export const REVEAL_VISIBLE_MS = 60_000;

/**
 * The reveal's state and calls: the details (hidden after REVEAL_VISIBLE_MS or when the tab is
 * hidden), the password asked again when the server wants it (or a passkey), and copying.
 */
export function useRevealSection(card: Card) {
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

  return {
    details,
    hide: () => setDetails(null),
    askPassword,
    cancelPassword: () => setAskPassword(false),
    offerPasskey,
    problem,
    autoHidden,
    form,
    reveal,
    reauth,
    reauthWithPasskey,
    requestReveal,
    confirmPassword,
    confirmWithPasskey,
    copy,
  };
}
