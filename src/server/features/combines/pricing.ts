// The user's pricing state for a combine: which product-fee rate applies before the review's
// boost choice, and whether completing it would claim a launch-promo spot.
import { eq, sql } from 'drizzle-orm';
import { productFeePpm } from '../../../core/fees';
import type { PlanId } from '../../../core/plans';
import { isPromoActive, qualifiesForPromo } from '../../../core/promo';
import type { DbOrTx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { readPromoStatus } from '../system';

export type UserRow = typeof users.$inferSelect;

export type Pricing = {
  plan: PlanId;
  /** The user's promo is running now. */
  promoActive: boolean;
  /** Completing a combine of this total would claim one of the remaining spots. */
  promoClaim: boolean;
  /** Product-fee rate with the promo (running or claimable) and without a boost. */
  baseProductFeePpm: number;
};

export function pricingFor(user: UserRow, totalCents: number, remainingSpots: number, now: Date): Pricing {
  const plan = user.subscription as PlanId;
  const promoActive = isPromoActive({ promoEnd: user.promoEnd, now });
  const promoClaim = !promoActive && qualifiesForPromo({ totalCents, hasPromo: user.promo50offFirstYear, remainingCount: remainingSpots });
  return { plan, promoActive, promoClaim, baseProductFeePpm: productFeePpm({ plan, promoActive: promoActive || promoClaim, boostUsed: false }) };
}

// A named statement built once (db/named-statement.ts). The completion, which needs the user
// locked, reads it with its combine instead (complete-combine.ts).
const loadUserStatement = namedStatement('load_user', (db) => db.select().from(users).where(eq(users.id, sql.placeholder('userId'))));

export async function loadUser(db: DbOrTx, userId: string): Promise<UserRow> {
  const [user] = await loadUserStatement(db, { userId });
  if (!user) throw notFound('Account not found.');
  return user;
}

/**
 * Whether the launch-promo counter can change this combine's pricing: only for a user without the
 * promo and a total that qualifies. Otherwise the counter need not be read (one round trip less).
 */
export function promoCounterMatters(user: UserRow, totalCents: number, now: Date): boolean {
  return !isPromoActive({ promoEnd: user.promoEnd, now }) && qualifiesForPromo({ totalCents, hasPromo: user.promo50offFirstYear, remainingCount: 1 });
}

/** The spots left, read only when they can matter (0 otherwise, which prices the same). */
export async function remainingPromoSpots(db: DbOrTx, user: UserRow, totalCents: number, now: Date): Promise<number> {
  return promoCounterMatters(user, totalCents, now) ? (await readPromoStatus(db)).remainingCount : 0;
}

export async function loadPricing(db: DbOrTx, user: UserRow, totalCents: number, now: Date): Promise<Pricing> {
  return pricingFor(user, totalCents, await remainingPromoSpots(db, user, totalCents, now), now);
}
