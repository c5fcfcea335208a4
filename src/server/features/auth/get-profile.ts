// The docs/rules.md#registration user profile as the API shows it (contracts/me.ts). Other features that change the
// profile (plans, payout methods, promo) answer with this too, so the web app's ['me'] stays one shape.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Profile } from '../../../contracts/me';
import { isPromoActive } from '../../../core/promo';
import type { DbOrTx } from '../../db/client';
import { payoutMethods, users } from '../../db/schema';

type PayoutMethodRow = typeof payoutMethods.$inferSelect;

/** The account's columns a profile shows: no password hash, no second-factor secrets. */
export const profileColumns = {
  id: users.id,
  email: users.email,
  createdAt: users.createdAt,
  lastReset: users.lastReset,
  subscription: users.subscription,
  billingCycle: users.billingCycle,
  subscriptionPriceCents: users.subscriptionPriceCents,
  subscriptionUpdated: users.subscriptionUpdated,
  currentSubscriptionStart: users.currentSubscriptionStart,
  subscriptionPeriodEnd: users.subscriptionPeriodEnd,
  cancelAtPeriodEnd: users.cancelAtPeriodEnd,
  subscriptionLastCanceledAt: users.subscriptionLastCanceledAt,
  loyaltyDiscountMonths: users.loyaltyDiscountMonths,
  boostsUsed: users.boostsUsed,
  boostsAvailable: users.boostsAvailable,
  combineTotal: users.combineTotal,
  promo50offFirstYear: users.promo50offFirstYear,
  promoStart: users.promoStart,
  promoEnd: users.promoEnd,
  preferredPayout: users.preferredPayout,
  totpEnabled: users.totpEnabled,
  lastUpdated: users.lastUpdated,
  simulated: users.simulated,
  testSource: users.testSource,
  environment: users.environment,
};
export type ProfileUser = { [K in keyof typeof profileColumns]: (typeof users.$inferSelect)[K] };

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toProfile(user: ProfileUser, methods: ReadonlyArray<Pick<PayoutMethodRow, 'method' | 'status' | 'lastUsed' | 'detail' | 'destinationRef'>>, now: Date): Profile {
  return {
    id: user.id,
    email: user.email,
    createdAt: user.createdAt.toISOString(),
    lastReset: iso(user.lastReset),
    subscription: user.subscription as Profile['subscription'],
    billingCycle: user.billingCycle as Profile['billingCycle'],
    subscriptionPriceCents: user.subscriptionPriceCents,
    subscriptionUpdated: iso(user.subscriptionUpdated),
    currentSubscriptionStart: iso(user.currentSubscriptionStart),
    subscriptionPeriodEnd: iso(user.subscriptionPeriodEnd),
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    subscriptionLastCanceledAt: iso(user.subscriptionLastCanceledAt),
    loyaltyDiscountMonths: user.loyaltyDiscountMonths,
    boostsUsed: user.boostsUsed,
    boostsAvailable: user.boostsAvailable,
    combineTotal: user.combineTotal,
    promo50offFirstYear: user.promo50offFirstYear,
    promoStart: iso(user.promoStart),
    promoEnd: iso(user.promoEnd),
    promoActive: isPromoActive({ promoEnd: user.promoEnd, now }),
    preferredPayout: user.preferredPayout as Profile['preferredPayout'],
    payoutMethods: methods.map((m) => ({
      method: m.method as Profile['payoutMethods'][number]['method'],
      status: m.status as Profile['payoutMethods'][number]['status'],
      lastUsed: iso(m.lastUsed),
      detail: m.detail,
      needsDetails: m.destinationRef === null,
    })),
    twoFactorEnabled: user.totpEnabled,
    lastUpdated: user.lastUpdated.toISOString(),
    simulated: user.simulated,
    testSource: user.testSource,
    environment: user.environment,
  };
}

/**
 * The user's profile, or null when the account no longer exists or is closed (decision 165: a
 * closed account is no account). A sign-in or a change that ends by answering the profile, and
 * that raced a closing, thus answers 401 and rolls back.
 */
export async function loadProfile(db: DbOrTx, userId: string, now: Date): Promise<Profile | null> {
  const [user] = await db.select(profileColumns).from(users).where(and(eq(users.id, userId), isNull(users.closedAt)));
  if (!user) return null;
  const methods = await db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)).orderBy(asc(payoutMethods.createdAt));
  return toProfile(user, methods, now);
}
