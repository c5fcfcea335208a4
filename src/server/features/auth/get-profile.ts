// The spec §3 user profile as the API shows it (contracts/me.ts). Other features that change the
// profile (plans, payout methods, promo) answer with this too, so the web app's ['me'] stays one shape.
import { asc, eq } from 'drizzle-orm';
import type { Profile } from '../../../contracts/me';
import { isPromoActive } from '../../../core/promo';
import type { DbOrTx } from '../../db/client';
import { payoutMethods, users } from '../../db/schema';

type UserRow = typeof users.$inferSelect;
type PayoutMethodRow = typeof payoutMethods.$inferSelect;

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toProfile(user: UserRow, methods: ReadonlyArray<Pick<PayoutMethodRow, 'method' | 'status' | 'lastUsed'>>, now: Date): Profile {
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
    })),
    twoFactorEnabled: user.totpEnabled,
    lastUpdated: user.lastUpdated.toISOString(),
    simulated: user.simulated,
    testSource: user.testSource,
    environment: user.environment,
  };
}

/** The user's profile, or null when the account no longer exists. */
export async function loadProfile(db: DbOrTx, userId: string, now: Date): Promise<Profile | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const methods = await db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)).orderBy(asc(payoutMethods.createdAt));
  return toProfile(user, methods, now);
}
