// GET /api/dashboard: everything the overview shows, in one answer computed by the
// server from the user's own rows. Money in cents.
import { z } from 'zod';
import { cents } from './common';
import { combineSummary } from './combines';
import { planId } from './me';

/**
 * The launch promo from this user's point of view (docs/rules.md#screens /dashboard): `active` until
 * `endsAt`; `eligible` while spots remain and the user never had it; `closed` when all spots
 * are claimed; `ended` when the user's own 12 months are over (a user holds it at most once).
 */
export const promoState = z.enum(['active', 'eligible', 'closed', 'ended']);

export const dashboardPromo = z.object({
  state: promoState,
  endsAt: z.string().nullable(),
  daysRemaining: z.number().int(),
  remainingCount: z.number().int(),
  limitCount: z.number().int(),
  minTotalCents: cents,
});

/** One bar of the dashboard chart: a card's money, spent and remaining, out of its original amount. */
export const cardBalanceBar = z.object({
  cardId: z.string(),
  last4: z.string(),
  status: z.string(),
  frozen: z.boolean(),
  originalAmountCents: cents,
  amountSpentCents: cents,
  remainingAmountCents: cents,
});

export const dashboardResponse = z.object({
  plan: z.object({ id: planId, label: z.string(), name: z.string() }),
  promo: dashboardPromo,
  combinesThisMonth: z.object({
    completed: z.number().int(),
    /** null on an unlimited plan. */
    limit: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
  }),
  boosts: z.object({
    available: z.number().int(),
    used: z.number().int(),
    maxHeld: z.number().int(),
    maxLifetimeUsed: z.number().int(),
    combineTotal: z.number().int(),
  }),
  recentCombines: z.array(combineSummary),
  /** Balance across the user's cards that still hold money (largest first, at most 8), and the total. */
  balances: z.object({
    totalRemainingCents: cents,
    cardsWithBalance: z.number().int(),
    bars: z.array(cardBalanceBar),
  }),
});
export type DashboardData = z.infer<typeof dashboardResponse>;
