// A card's spend controls for its details modal (docs/rules.md#card-controls): read with what they
// leave now, and replaced as a whole. A purchase changes what is left, so it lives under 'cards'
// and every card change refreshes it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardControlsRequest, CardControlsResponse } from '../../../../contracts/card-controls';
import { api } from '../../../lib/api';
import { cardsQueryKey } from './cards';

const controlsKey = (cardId: string) => [...cardsQueryKey, 'controls', cardId];
const controlsUrl = (cardId: string) => `/api/cards/${encodeURIComponent(cardId)}/controls`;

export function useCardControls(cardId: string) {
  return useQuery({ queryKey: controlsKey(cardId), queryFn: () => api<CardControlsResponse>(controlsUrl(cardId)) });
}

export function useSetCardControls(cardId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: CardControlsRequest) => api<CardControlsResponse>(controlsUrl(cardId), { method: 'PUT', body: request }),
    onSuccess: (answer) => client.setQueryData(controlsKey(cardId), answer),
  });
}
