import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { PromoStatus } from '../../../../contracts/system';

export const promoStatusQueryKey = ['promo'] as const;

/** How often the landing page re-reads the counter while it stays open: real figures only. */
const PROMO_REFRESH_MS = 60_000;

/**
 * GET /api/promo: the real number of launch-promo spots left. docs/rules.md#honest-figures: no simulated
 * countdown and no fallback number; a failure is shown as a failure.
 */
export function usePromoStatus() {
  return useQuery({
    queryKey: promoStatusQueryKey,
    queryFn: () => api<PromoStatus>('/api/promo'),
    refetchInterval: PROMO_REFRESH_MS,
  });
}
