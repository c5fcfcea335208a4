import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SignedInSession } from '../../../../contracts/sessions';
import { ApiError, errorMessage } from '../../../lib/api';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { useToast } from '../../../ui/toast';
import { signedInSessionsQueryKey, useEndSession, useSignedInSessions, useSignOutOtherSessions } from '../api/sessions';
import { ReauthenticateModal } from './ReauthenticateModal';
import '../security-panel.css';

// Settings → Security → Signed-in devices (docs/decisions/164): where the account is signed in,
// this device marked, the newest activity first; Sign out for each other device and for all of
// them, after a confirmation, asking who you are again when the password was not entered in the
// last 5 minutes, then carrying on.

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));
const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

// A phone and a computer, on the icon set's 24×24 grid.
const PHONE_ICON_PATH = 'M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2ZM11 18h2';
const COMPUTER_ICON_PATH = 'M4 4h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1ZM8 20h8M12 16v4';
const isPhone = (device: string) => / on (iPhone|iPad|Android)$/.test(device);

type Action = { kind: 'one'; session: SignedInSession } | { kind: 'others' };
type Dialog = { step: 'confirm' | 'reauth'; action: Action };

const isReauthRequired = (error: unknown) => error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required';

const endedText = (count: number) =>
  count === 0 ? 'No other devices were signed in' : count === 1 ? 'Signed out 1 other device' : `Signed out ${count} other devices`;

export function SignedInDevicesPanel() {
  const toast = useToast();
  const client = useQueryClient();
  const list = useSignedInSessions();
  const endOne = useEndSession();
  const endOthers = useSignOutOtherSessions();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const sessions = list.data ?? [];
  const others = sessions.filter((session) => !session.current);
  const busy = endOne.isPending || endOthers.isPending;

  /** Runs the action; true when it is settled (done or refused), false when the password is needed first. */
  async function run(action: Action): Promise<boolean> {
    try {
      if (action.kind === 'one') {
        await endOne.mutateAsync(action.session.id);
        toast.success(`Signed out ${action.session.device}`);
      } else {
        toast.success(endedText((await endOthers.mutateAsync()).ended));
      }
    } catch (error) {
      if (isReauthRequired(error)) return false;
      toast.error(
        errorMessage(error, action.kind === 'one' ? 'Could not sign out that device. Please try again.' : 'Could not sign out your other devices. Please try again.'),
      );
    }
    return true;
  }

  async function confirm(action: Action) {
    if (await run(action)) return finish();
    setDialog({ step: 'reauth', action });
  }

  async function afterReauthentication(action: Action) {
    // Re-authentication replaced this device's session: the list's "This device" is a new one.
    void client.invalidateQueries({ queryKey: signedInSessionsQueryKey });
    if (await run(action)) finish();
  }

  function finish() {
    setDialog(null);
    // The button that opened the dialog is gone with what it signed out: focus goes to the
    // section's heading, once the dialog has closed. (When the button is still there, the
    // dialog's own return of focus to it comes after this and wins.)
    setTimeout(() => heading.current?.focus(), 0);
  }

  return (
    <section className="security-panel" aria-labelledby="devices-heading">
      <h3 id="devices-heading" ref={heading} tabIndex={-1}>
        Signed-in devices
      </h3>
      <p className="text-muted">
        Where your account is signed in now. If you do not recognise a device, or lost one, sign it out and change your password.
      </p>
      {list.isPending && <Spinner label="Loading your signed-in devices" showLabel size="sm" />}
      {list.isError && (
        <Notice tone="error" role="alert">
          {errorMessage(list.error, 'Could not load your signed-in devices.')}{' '}
          <Button variant="ghost" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Notice>
      )}
      {list.isSuccess && (
        <>
          <ul className="security-list" aria-label="Your signed-in devices">
            {sessions.map((session) => (
              <li key={session.id} className="security-item" aria-current={session.current ? 'true' : undefined}>
                <Icon d={isPhone(session.device) ? PHONE_ICON_PATH : COMPUTER_ICON_PATH} size={22} className="security-item-icon" />
                <div className="security-item-text">
                  <p className="security-item-name">
                    {session.device} {session.current && <Badge tone="success">This device</Badge>}
                  </p>
                  <p className="text-small text-muted" id={`device-${session.id}`}>
                    {session.ipAddress ?? 'Address unknown'} · Signed in {formatDate(session.createdAt)} ·{' '}
                    {session.current ? 'Active now' : `Last active ${formatDateTime(session.lastSeenAt)}`}
                  </p>
                </div>
                {!session.current && (
                  <div className="security-item-actions">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setDialog({ step: 'confirm', action: { kind: 'one', session } })}
                      aria-label={`Sign out ${session.device}`}
                      aria-describedby={`device-${session.id}`}
                    >
                      Sign out
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
          {others.length > 0 ? (
            <div className="button-row">
              <Button variant="secondary" onClick={() => setDialog({ step: 'confirm', action: { kind: 'others' } })}>
                Sign out all other devices
              </Button>
            </div>
          ) : (
            <p className="text-small text-muted">No other device is signed in.</p>
          )}
        </>
      )}

      <ConfirmModal
        open={dialog?.step === 'confirm'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        title={dialog?.action.kind === 'one' ? `Sign out ${dialog.action.session.device}?` : 'Sign out all other devices?'}
        confirmLabel={dialog?.action.kind === 'one' ? 'Sign out device' : 'Sign out other devices'}
        tone="danger"
        busy={busy}
        onConfirm={() => dialog && void confirm(dialog.action)}
      >
        {dialog?.action.kind === 'one' ? (
          <p>
            {dialog.action.session.device}
            {dialog.action.session.ipAddress ? ` (${dialog.action.session.ipAddress})` : ''} will have to sign in again to use your account. This device stays
            signed in.
          </p>
        ) : (
          <p>Every other browser and phone signed in to your account will have to sign in again. This device stays signed in.</p>
        )}
      </ConfirmModal>

      <ReauthenticateModal
        open={dialog?.step === 'reauth'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        description={
          dialog?.action.kind === 'one'
            ? 'For your security, enter your password again before signing out a device.'
            : 'For your security, enter your password again before signing out your other devices.'
        }
        onConfirmed={() => (dialog ? afterReauthentication(dialog.action) : Promise.resolve())}
      />
    </section>
  );
}
