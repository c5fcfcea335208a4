// The combine wizard's calls (src/contracts/combines.ts): fetchers and TanStack Query hooks
// together, one place to read what the wizard asks of the server. Every mutation that answers
// with the combine writes it into the cache, so the wizard always shows the server's figures.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, ApiError, referenceSuffix } from '../../lib/api';
import type {
  AddSourceRequest,
  Combine,
  CompleteCombineResponse,
  Quote,
} from '../../../contracts/combines';
import type { amountInput, completeCombineRequest, quoteRequest, updateCombineRequest } from '../../../contracts/combines';
import { sessionQueryKey } from '../../lib/session';

export type AmountInput = z.infer<typeof amountInput>;
export type CombinePatch = z.infer<typeof updateCombineRequest>;
export type QuoteChoices = z.output<typeof quoteRequest>;
export type CompleteRequest = z.infer<typeof completeCombineRequest>;

// Lists (drafts, history, dashboard) all start with 'combines'; cards with 'cards'.
export const combinesQueryKey = ['combines'] as const;
export const combineQueryKey = (id: string) => ['combines', 'detail', id] as const;
export const quoteQueryKey = (id: string, choices: QuoteChoices, fingerprint: string) =>
  ['combines', 'quote', id, choices, fingerprint] as const;
export const activeCardsQueryKey = ['cards', 'active-sources'] as const;

// ---------- Fetchers ----------

export const fetchCombine = (id: string) => api<Combine>(`/api/combines/${encodeURIComponent(id)}`);

export const createCombine = (body: AmountInput) => api<Combine>('/api/combines', { method: 'POST', body });

export const updateCombine = (id: string, body: CombinePatch) =>
  api<Combine>(`/api/combines/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export const addSource = (id: string, body: AddSourceRequest) =>
  api<Combine>(`/api/combines/${encodeURIComponent(id)}/sources`, { method: 'POST', body });

export const removeSource = (id: string, sourceId: string) =>
  api<Combine>(`/api/combines/${encodeURIComponent(id)}/sources/${encodeURIComponent(sourceId)}`, { method: 'DELETE' });

export const addBnplCard = (id: string, sourceId: string, body: { cardNumber: string; expiry: string; cvv: string }) =>
  api<Combine>(`/api/combines/${encodeURIComponent(id)}/sources/${encodeURIComponent(sourceId)}/bnpl-card`, {
    method: 'POST',
    body,
  });

export const fetchQuote = (id: string, body: QuoteChoices) =>
  api<Quote>(`/api/combines/${encodeURIComponent(id)}/quote`, { method: 'POST', body });

export const saveCombine = (id: string, body: { currentStep: number; formData: Record<string, unknown> }) =>
  api<Combine>(`/api/combines/${encodeURIComponent(id)}/save`, { method: 'POST', body });

export const completeCombine = (id: string, body: CompleteRequest, idempotencyKey: string) =>
  api<CompleteCombineResponse>(`/api/combines/${encodeURIComponent(id)}/complete`, {
    method: 'POST',
    body,
    idempotencyKey,
  });

// The cards feature owns GET /api/cards; the wizard only needs the active cards with a balance,
// read leniently so a change in that answer's extra fields cannot break the source form.
const activeCard = z.object({
  id: z.string(),
  last4: z.string(),
  network: z.string().optional().default('visa'),
  status: z.string().optional().default('active'),
  remainingAmountCents: z.number().int(),
  frozen: z.boolean().optional().default(false),
  can: z.object({ useAsSource: z.boolean() }).partial().optional(),
});
export type ActiveCard = z.infer<typeof activeCard>;
const activeCardsAnswer = z.union([z.object({ cards: z.array(activeCard) }), z.array(activeCard)]);

/** Cards that can fund a combine; an empty list when the endpoint does not exist (yet). */
export async function fetchActiveCards(): Promise<ActiveCard[]> {
  try {
    const answer = activeCardsAnswer.safeParse(await api<unknown>('/api/cards?status=active'));
    if (!answer.success) return [];
    const cards = Array.isArray(answer.data) ? answer.data : answer.data.cards;
    return cards.filter(
      (card) => card.status === 'active' && !card.frozen && card.remainingAmountCents > 0 && card.can?.useAsSource !== false,
    );
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return [];
    throw error;
  }
}

// ---------- Hooks ----------

/** Drafts, history and the dashboard's recent activity; not the combine the wizard holds. */
function invalidateCombineLists(client: QueryClient) {
  void client.invalidateQueries({ queryKey: combinesQueryKey, predicate: (query) => query.queryKey[1] !== 'detail' });
}

/** A combine by id; used to resume a draft. A 404 is final, so it is not retried. */
export function useCombine(id: string | null) {
  return useQuery({
    queryKey: combineQueryKey(id ?? ''),
    queryFn: () => fetchCombine(id as string),
    enabled: id !== null,
    staleTime: Infinity,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500 && error.status > 0) && count < 1,
  });
}

/** Every call that answers with the combine puts it in the cache the wizard reads. */
function useCombineMutation<Variables>(run: (variables: Variables) => Promise<Combine>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (combine) => {
      client.setQueryData(combineQueryKey(combine.id), combine);
      invalidateCombineLists(client);
    },
  });
}

export function useCreateCombine() {
  return useCombineMutation((body: AmountInput) => createCombine(body));
}

export function useUpdateCombine() {
  return useCombineMutation(({ id, patch }: { id: string; patch: CombinePatch }) => updateCombine(id, patch));
}

export function useAddSource() {
  return useCombineMutation(({ id, source }: { id: string; source: AddSourceRequest }) => addSource(id, source));
}

export function useRemoveSource() {
  return useCombineMutation(({ id, sourceId }: { id: string; sourceId: string }) => removeSource(id, sourceId));
}

export function useAddBnplCard() {
  return useCombineMutation(
    ({ id, sourceId, card }: { id: string; sourceId: string; card: { cardNumber: string; expiry: string; cvv: string } }) =>
      addBnplCard(id, sourceId, card),
  );
}

export function useSaveCombine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, currentStep, formData }: { id: string; currentStep: number; formData: Record<string, unknown> }) =>
      saveCombine(id, { currentStep, formData }),
    onSuccess: (combine) => {
      client.setQueryData(combineQueryKey(combine.id), combine);
      invalidateCombineLists(client);
    },
  });
}

/**
 * The review's quote. The fingerprint names what the server's figures depend on besides the
 * choices (the total and the sources), so a changed source list asks again; while the next
 * quote loads the previous one stays on screen instead of a flash of nothing.
 */
export function useQuote(id: string | null, choices: QuoteChoices, fingerprint: string, enabled: boolean) {
  return useQuery({
    queryKey: quoteQueryKey(id ?? '', choices, fingerprint),
    queryFn: () => fetchQuote(id as string, choices),
    enabled: enabled && id !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 60_000,
  });
}

export function useCompleteCombine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, idempotencyKey }: { id: string; body: CompleteRequest; idempotencyKey: string }) =>
      completeCombine(id, body, idempotencyKey),
    onSuccess: (result) => {
      client.setQueryData(combineQueryKey(result.combine.id), result.combine);
      // Boost counts, combine totals, promo state, card lists and history all moved.
      void client.invalidateQueries({ queryKey: sessionQueryKey });
      void client.invalidateQueries({ queryKey: ['cards'] });
      void client.invalidateQueries({ queryKey: ['promo'] });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      invalidateCombineLists(client);
    },
  });
}

/** The user's active cards with a balance, for the 'PayWeave card balance' source type. */
export function useActiveCards() {
  return useQuery({ queryKey: activeCardsQueryKey, queryFn: fetchActiveCards, staleTime: 30_000, retry: false });
}

// The dashboard's monthly count, read leniently: the wizard warns before the user enters any
// card when this month's combines are used up (the server enforces the limit at creation).
const monthlyAllowanceAnswer = z.object({
  combinesThisMonth: z.object({ completed: z.number().int(), limit: z.number().int().nullable(), remaining: z.number().int().nullable() }),
});
export type MonthlyAllowance = z.infer<typeof monthlyAllowanceAnswer>['combinesThisMonth'];

export async function fetchMonthlyAllowance(): Promise<MonthlyAllowance | null> {
  const answer = monthlyAllowanceAnswer.safeParse(await api<unknown>('/api/dashboard'));
  return answer.success ? answer.data.combinesThisMonth : null;
}

/** Combines left this month; null while unknown (the wizard then simply does not warn). */
export function useMonthlyAllowance() {
  return useQuery({ queryKey: ['dashboard', 'monthly-allowance'], queryFn: fetchMonthlyAllowance, retry: false, staleTime: 30_000 });
}

/** A failed quote_changed answer carries the new quote in its details. */
export function quoteChangedDetails(error: unknown): Quote | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'quote_changed') return null;
  const details = error.details as Quote | undefined;
  return details && typeof details === 'object' && typeof details.cardAmountCents === 'number' ? details : null;
}

/**
 * The message a failed call shows: the server's own text for a refusal it explained (4xx),
 * the screen's fallback for anything unexpected (network, 5xx).
 */
export function refusalMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) return error.message;
  // The spec's fallback ('Failed to add payment source') says what failed; the rest says why and what next.
  if (error instanceof ApiError) return `${fallback}. ${error.message}${referenceSuffix(error)}`;
  return fallback;
}
