// The cards API for /my-cards: list, one card's transactions, freeze, reveal, demo purchases.
// Every change refreshes everything under 'cards', plus the dashboard and history, whose
// balances come from the same cards.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { Card, CardFilter, CardReveal, CardSpending, CardTransaction, CardTransactionList, PurchaseRequest, PurchaseResponse } from '../../../../contracts/cards';
import type { PasskeyList } from '../../../../contracts/passkeys';
import { api, newIdempotencyKey } from '../../../lib/api';
import { answerPasskeyRequest } from '../../../lib/passkeys';

export const cardsQueryKey = ['cards'] as const;

const cardUrl = (id: string) => `/api/cards/${encodeURIComponent(id)}`;

export function useCards(filter: CardFilter) {
  return useQuery({
    queryKey: [...cardsQueryKey, 'list', filter],
    queryFn: async () => (await api<{ cards: Card[] }>(`/api/cards?status=${filter}`)).cards,
  });
}

/** One card, fresh from the server; the list's copy is shown until it answers. */
export function useCard(cardId: string, initial?: Card) {
  return useQuery({
    queryKey: [...cardsQueryKey, 'detail', cardId],
    queryFn: () => api<Card>(cardUrl(cardId)),
    initialData: initial,
    initialDataUpdatedAt: 0,
  });
}

// One request gives a card's transactions and the breakdown of its spending; each hook selects its part.
const cardTransactionsQuery = (cardId: string) => ({
  queryKey: [...cardsQueryKey, 'transactions', cardId],
  queryFn: () => api<CardTransactionList>(`${cardUrl(cardId)}/transactions`),
});

export function useCardTransactions(cardId: string) {
  return useQuery({ ...cardTransactionsQuery(cardId), select: (list: CardTransactionList): CardTransaction[] => list.transactions });
}

/** Spent, broken down into purchases, cash-outs and use as a source (docs/rules.md#cards). */
export function useCardSpending(cardId: string) {
  return useQuery({ ...cardTransactionsQuery(cardId), select: (list: CardTransactionList): CardSpending => list.spending });
}

function refreshAfterCardChange(client: QueryClient) {
  void client.invalidateQueries({ queryKey: cardsQueryKey });
  void client.invalidateQueries({ queryKey: ['dashboard'] });
  void client.invalidateQueries({ queryKey: ['combines'] });
}

/** Puts the server's new view of a card into every cached list, so the open modal updates at once. */
function storeCard(client: QueryClient, card: Card) {
  client.setQueryData([...cardsQueryKey, 'detail', card.id], card);
  client.setQueriesData<Card[]>({ queryKey: [...cardsQueryKey, 'list'] }, (list) => list?.map((c) => (c.id === card.id ? card : c)));
}

export function useSetFrozen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ cardId, frozen }: { cardId: string; frozen: boolean }) =>
      api<Card>(`${cardUrl(cardId)}/${frozen ? 'freeze' : 'unfreeze'}`, { method: 'POST' }),
    onSuccess: (card) => {
      storeCard(client, card);
      refreshAfterCardChange(client);
    },
  });
}

export function usePurchase() {
  const client = useQueryClient();
  return useMutation({
    // One key per submitted form: a network retry of the same submission cannot charge twice.
    mutationFn: ({ cardId, idempotencyKey, ...body }: { cardId: string; idempotencyKey: string } & PurchaseRequest) =>
      api<PurchaseResponse>(`${cardUrl(cardId)}/purchases`, { method: 'POST', body, idempotencyKey }),
    onSuccess: (answer) => storeCard(client, answer.card),
    // A decline is recorded too: the transaction list changes either way.
    onSettled: () => refreshAfterCardChange(client),
  });
}

export { newIdempotencyKey };

/** The reveal is never cached: its answer lives only in the component that asked for it. */
export function useReveal() {
  return useMutation({
    mutationFn: (cardId: string) => api<CardReveal>(`${cardUrl(cardId)}/reveal`, { method: 'POST' }),
  });
}

export function useReauthenticate() {
  return useMutation({
    mutationFn: (password: string) => api<void>('/api/auth/reauthenticate', { method: 'POST', body: { password } }),
  });
}

/** Whether the user has a passkey to confirm with (the same query as Settings → Security's list). */
export function useHasPasskey(enabled: boolean) {
  const query = useQuery({
    queryKey: ['passkeys'],
    queryFn: async () => (await api<PasskeyList>('/api/me/passkeys')).passkeys,
    enabled,
  });
  return (query.data?.length ?? 0) > 0;
}

/** Confirm it is you with a passkey instead of the password (docs/decisions/090). */
export function useReauthenticateWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      const credential = await answerPasskeyRequest('/api/auth/reauthenticate/passkey/options');
      await api<void>('/api/auth/reauthenticate/passkey', { method: 'POST', body: { credential } });
    },
  });
}
