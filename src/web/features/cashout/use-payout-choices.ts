// The payout methods the cash-out form offers (docs/rules.md#payout-methods-by-plan), how each is
// labelled, which is chosen first, and which ones need their details entered before a payout.
import { useMemo } from 'react';
import { cashoutMethodChoices } from '../../../core/cashout';
import { isPayoutMethod, PAYOUT_METHOD_LABELS } from '../../../core/plans';
import type { PayoutMethod, PlanId } from '../../../core/plans';
import { useSession } from '../../lib/session';

/** Decision 172: the server refused a cash-out to `method` because the payout provider has no destination for it. */
export type Refused = { method: PayoutMethod; message: string };

export function usePayoutChoices(refused: Refused | null) {
  const { profile } = useSession();
  const plan: PlanId = profile?.subscription ?? 'free';
  const promoActive = profile?.promoActive ?? false;
  const saved = useMemo(
    () => (profile?.payoutMethods ?? []).filter((m) => m.status === 'active').map((m) => m.method),
    [profile?.payoutMethods],
  );
  const choices = useMemo(() => cashoutMethodChoices(plan, saved), [plan, saved]);
  const savedEntry = (method: PayoutMethod) => profile?.payoutMethods.find((m) => m.method === method && m.status === 'active') ?? null;
  const isSaved = (method: PayoutMethod) => saved.includes(method);
  // Each saved method's details ("•••• 6789"), so the user sees where the money goes before it does.
  const savedDetail = (method: PayoutMethod) => savedEntry(method)?.detail ?? null;
  // A saved method without a destination (saved before decision 168, or without details) is paid
  // only once its details are entered again; the server's refusal says so when the profile did not.
  const savedWithoutDetails = (method: PayoutMethod) => isSaved(method) && ((savedEntry(method)?.needsDetails ?? false) || refused?.method === method);
  const methodLabel = (method: PayoutMethod) => {
    const shown = [savedDetail(method), savedWithoutDetails(method) ? 'details needed' : null].filter(Boolean).join(', ');
    return shown ? `${PAYOUT_METHOD_LABELS[method]} (${shown})` : PAYOUT_METHOD_LABELS[method];
  };
  const preferred = profile?.preferredPayout ?? null;
  // No method is chosen for the user unless they saved one: money goes where they say.
  const defaultMethod: PayoutMethod | '' = preferred && isSaved(preferred) && choices.includes(preferred) ? preferred : '';
  // Asked on first use (saved before the cash-out), and again for a saved method without a destination (decision 172).
  const needsDetails = (method: string): method is PayoutMethod => isPayoutMethod(method) && (!isSaved(method) || savedWithoutDetails(method));
  return { plan, promoActive, choices, isSaved, savedDetail, methodLabel, defaultMethod, needsDetails };
}
