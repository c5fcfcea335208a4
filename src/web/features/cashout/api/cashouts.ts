// The cash-out API for /cashout and the My Cards cash-out modal: the cards that can be cashed
// out, and the cash-out itself. A cash-out changes a card, so everything under 'cards' (the
// My Cards lists share the prefix), the dashboard, history and the profile are refreshed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Card } from '../../../../contracts/cards';
import type { CreateCashoutRequest, CreateCashoutResponse } from '../../../../contracts/cashouts';
import type { PayoutMethodsView } from '../../../../contracts/payout-methods';
import { payoutDetail } from '../../../../core/payout-details';
import { PAYOUT_METHOD_LABELS } from '../../../../core/plans';
import { api, ApiError } from '../../../lib/api';

/** docs/rules.md#messages. */
export const LOAD_ELIGIBLE_FAILED = 'Failed to load eligible cards';

export const cashoutCardsQueryKey = ['cards', 'cashout-eligible'] as const;

/**
 * Cards the server would cash out now (`can.cashOut`: active or expired, not frozen, balance
 * above 0), largest balance first (docs/rules.md#screens).
 */
export function useCashoutCards() {
  return useQuery({
    queryKey: cashoutCardsQueryKey,
    queryFn: async () => {
      const { cards } = await api<{ cards: Card[] }>('/api/cards?status=all');
      return eligibleCards(cards);
    },
  });
}

export function eligibleCards(cards: readonly Card[]): Card[] {
  return cards
    .filter((card) => card.can.cashOut && card.remainingAmountCents > 0)
    .sort((a, b) => b.remainingAmountCents - a.remainingAmountCents);
}

/**
 * A method used for the first time is saved first, with where the money goes (for ACH, with
 * its bank's routing number, decision 171); a saved one without a destination gets its details the
 * same way (POST /api/payout-methods answers 200, decision 172).
 */
export type NewPayoutMethod = { method: CreateCashoutRequest['payoutMethod']; detail: string; routingNumber?: string };

/** The method was saved meanwhile with other details than the ones entered for this cash-out. */
export const savedWithOtherDetailsMessage = (method: NewPayoutMethod['method'], saved: string | null) =>
  `${PAYOUT_METHOD_LABELS[method]} was saved meanwhile${saved ? ` with ${saved}` : ''}, not with the details you entered, so nothing was cashed out. Check it under Account Settings → Payout Methods and try again.`;

async function saveNewMethod(method: NewPayoutMethod): Promise<void> {
  try {
    await api('/api/payout-methods', { method: 'POST', body: method });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'already_added')) throw error;
    // Added meanwhile (another tab, or this save whose answer was lost). The payout goes to the
    // destination saved with that method (decision 168): go ahead only when it is the one entered here,
    // as far as what is kept can tell (the account's last 4 digits: the routing number is not kept, decision 171).
    const entered = payoutDetail(method.method, { detail: method.detail, routingNumber: method.routingNumber });
    const saved = (await api<PayoutMethodsView>('/api/payout-methods')).methods.find((m) => m.method === method.method)?.detail ?? null;
    if (!entered.ok || saved !== entered.stored) throw new ApiError(409, 'already_added', savedWithOtherDetailsMessage(method.method, saved));
  }
}

export function useCreateCashout() {
  const client = useQueryClient();
  return useMutation({
    // The key is made when the user confirms: a network retry of that confirmation cannot pay twice.
    mutationFn: async ({ idempotencyKey, newMethod, ...body }: CreateCashoutRequest & { idempotencyKey: string; newMethod?: NewPayoutMethod }) => {
      if (newMethod) await saveNewMethod(newMethod);
      return api<CreateCashoutResponse>('/api/cashouts', { method: 'POST', body, idempotencyKey });
    },
    onSuccess: (answer) => {
      // The new balance at once, so the success modal and the form agree before the refetch.
      client.setQueryData<Card[]>(cashoutCardsQueryKey, (list) =>
        list?.map((card) =>
          card.id === answer.card.id
            ? { ...card, remainingAmountCents: answer.card.remainingAmountCents, status: answer.card.status as Card['status'] }
            : card,
        ),
      );
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['cards'], refetchType: 'inactive' });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      void client.invalidateQueries({ queryKey: ['combines'] });
      void client.invalidateQueries({ queryKey: ['cashouts'] });
      void client.invalidateQueries({ queryKey: ['me'] });
      void client.invalidateQueries({ queryKey: ['payout-methods'] });
    },
  });
}
