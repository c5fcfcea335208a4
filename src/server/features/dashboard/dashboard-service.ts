// GET /api/dashboard: the overview, computed from the user's own rows in one read. Nothing here
// is sample data: a failure is a failure (docs/rules.md#honest-figures).
import { and, count, desc, eq, gt, gte, inArray, sum } from 'drizzle-orm';
import { BOOSTS } from '../../../core/boosts';
import { monthStartUtc } from '../../../core/limits';
import { PLANS, isPlanId } from '../../../core/plans';
import { PROMO, isPromoActive, promoDaysRemaining } from '../../../core/promo';
import type { DashboardData } from '../../../contracts/dashboard';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { cards, combines, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { listCombines } from '../combines';
import { readPromoStatus } from '../system';

export const RECENT_COMBINES = 3;
export const CHART_MAX_CARDS = 8;
/** Cards whose money the user can still reach (spend, reuse or cash out). */
const HOLDING_STATUSES = ['active', 'expired'];

export function promoStateFor(
  user: { promo50offFirstYear: boolean; promoEnd: Date | null },
  remainingCount: number,
  now: Date,
): DashboardData['promo']['state'] {
  if (isPromoActive({ promoEnd: user.promoEnd, now })) return 'active';
  if (user.promo50offFirstYear) return 'ended';
  return remainingCount > 0 ? 'eligible' : 'closed';
}

export async function loadDashboard(deps: { db: Db; config: Pick<Config, 'demoMode'>; now(): Date }, userId: string): Promise<DashboardData> {
  const now = deps.now();
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound('Account not found.');
  const planId = isPlanId(user.subscription) ? user.subscription : 'free';
  const plan = PLANS[planId];
  const holding = and(eq(cards.userId, userId), inArray(cards.status, HOLDING_STATUSES), gt(cards.remainingAmountCents, 0));

  const [promo, [monthly], recentCombines, [totals], bars] = await Promise.all([
    readPromoStatus(deps.db),
    deps.db
      .select({ completed: count() })
      .from(combines)
      .where(and(eq(combines.userId, userId), eq(combines.status, 'completed'), gte(combines.completedAt, monthStartUtc(now)))),
    listCombines(deps, userId, { status: 'completed', range: 'all', limit: RECENT_COMBINES }),
    deps.db.select({ total: sum(cards.remainingAmountCents), cards: count() }).from(cards).where(holding),
    deps.db.select().from(cards).where(holding).orderBy(desc(cards.remainingAmountCents), desc(cards.issuedAt)).limit(CHART_MAX_CARDS),
  ]);

  const completed = Number(monthly?.completed ?? 0);
  const limit = plan.monthlyCombineLimit;
  const state = promoStateFor(user, promo.remainingCount, now);
  return {
    plan: { id: plan.id, label: plan.label, name: plan.name },
    promo: {
      state,
      endsAt: user.promoEnd && user.promo50offFirstYear ? user.promoEnd.toISOString() : null,
      daysRemaining: state === 'active' ? promoDaysRemaining(user.promoEnd, now) : 0,
      remainingCount: promo.remainingCount,
      limitCount: promo.limitCount,
      minTotalCents: PROMO.minTotalCents,
    },
    combinesThisMonth: { completed, limit, remaining: limit === null ? null : Math.max(0, limit - completed) },
    boosts: {
      available: user.boostsAvailable,
      used: user.boostsUsed,
      maxHeld: BOOSTS.maxHeld,
      maxLifetimeUsed: BOOSTS.maxLifetimeUsed,
      combineTotal: user.combineTotal,
    },
    recentCombines,
    balances: {
      totalRemainingCents: Number(totals?.total ?? 0),
      cardsWithBalance: Number(totals?.cards ?? 0),
      bars: bars.map((c) => ({
        cardId: c.id,
        last4: c.last4,
        status: c.status,
        frozen: c.frozen,
        originalAmountCents: c.originalAmountCents,
        amountSpentCents: c.amountSpentCents,
        remainingAmountCents: c.remainingAmountCents,
      })),
    },
  };
}
