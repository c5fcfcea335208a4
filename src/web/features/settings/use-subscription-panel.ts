import { useRef, useState } from 'react';
import { SUBSCRIPTION_MESSAGES } from '../../../contracts/subscription';
import { ApiError } from '../../lib/api';
import { useToast } from '../../ui/toast';
import { useCancelSubscription, useSubscription } from './api/subscription';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
export const formatDate = (iso: string | null) => (iso ? DATE.format(new Date(iso)) : null);

/** The subscription panel's state: the subscription, the cancel confirmation and the cancelling. */
export function useSubscriptionPanel() {
  const subscription = useSubscription();
  const cancel = useCancelSubscription();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  // Once cancelled, the button that opened the confirmation is gone: focus goes to what changed.
  const cancelledNotice = useRef<HTMLDivElement>(null);

  const confirmCancel = () => {
    cancel.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        toast.success(answer.message);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : SUBSCRIPTION_MESSAGES.cancelFailed);
      },
    });
  };

  return { subscription, confirming, setConfirming, cancelledNotice, confirmCancel, cancelling: cancel.isPending };
}
