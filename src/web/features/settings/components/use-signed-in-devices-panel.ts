import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SignedInSession } from '../../../../contracts/sessions';
import { ApiError, errorMessage } from '../../../lib/api';
import { useToast } from '../../../ui/toast';
import { signedInSessionsQueryKey, useEndSession, useSignedInSessions, useSignOutOtherSessions } from '../api/sessions';

export type DeviceAction = { kind: 'one'; session: SignedInSession } | { kind: 'others' };
export type DeviceDialog = { step: 'confirm' | 'reauth'; action: DeviceAction };

const isReauthRequired = (error: unknown) => error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required';

const endedText = (count: number) =>
  count === 0 ? 'No other devices were signed in' : count === 1 ? 'Signed out 1 other device' : `Signed out ${count} other devices`;

/**
 * The signed-in devices panel's state: the list, the dialog open (confirm, or who you are again),
 * signing out one device or all the others, and focus on the heading when a device is gone.
 */
export function useSignedInDevicesPanel() {
  const toast = useToast();
  const client = useQueryClient();
  const list = useSignedInSessions();
  const endOne = useEndSession();
  const endOthers = useSignOutOtherSessions();
  const [dialog, setDialog] = useState<DeviceDialog | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const sessions = list.data ?? [];
  const others = sessions.filter((session) => !session.current);
  const busy = endOne.isPending || endOthers.isPending;

  /** Runs the action; true when it is settled (done or refused), false when the password is needed first. */
  async function run(action: DeviceAction): Promise<boolean> {
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

  async function confirm(action: DeviceAction) {
    if (await run(action)) return finish();
    setDialog({ step: 'reauth', action });
  }

  async function afterReauthentication(action: DeviceAction) {
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

  return { list, sessions, others, busy, dialog, setDialog, heading, confirm, afterReauthentication };
}

export type SignedInDevicesPanelState = ReturnType<typeof useSignedInDevicesPanel>;
