// Registration (docs/rules.md#registration): the account, its profile (same row: every field of docs/rules.md#registration
// with its starting value) and the first session are written in one transaction.
import { eq } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Profile } from '../../../contracts/me';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { conflict } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { inTransaction, pgCode } from '../../lib/transaction';
import { createSession, type NewSession } from '../../plugins/session';
import { toProfile } from './get-profile';

const UNIQUE_VIOLATION = '23505';

/** docs/rules.md#demo-mode demo flags: simulated records marked as coming from the MVP demo. */
export function demoFlags(demoMode: boolean) {
  return {
    simulated: demoMode,
    testSource: demoMode ? 'MVP-Demo' : '',
    environment: demoMode ? 'test' : 'production',
  };
}

export async function registerUser(
  db: Db,
  input: { email: string; password: string; now: Date; demoMode: boolean; ip: string; userAgent?: string },
): Promise<{ profile: Profile; session: NewSession }> {
  // Hashing takes tens of milliseconds on purpose: do it before the transaction holds anything.
  const passwordHash = await hashPassword(input.password, input.ip);
  try {
    return await inTransaction(db, async (tx) => {
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
      if (existing) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          passwordHash,
          createdAt: input.now,
          lastReset: input.now,
          subscription: 'free',
          billingCycle: null,
          subscriptionPriceCents: 0,
          subscriptionUpdated: null,
          currentSubscriptionStart: null,
          subscriptionLastCanceledAt: null,
          loyaltyDiscountMonths: 0,
          boostsUsed: 0,
          boostsAvailable: 0,
          combineTotal: 0,
          promo50offFirstYear: false,
          promoStart: null,
          promoEnd: null,
          preferredPayout: null,
          lastUpdated: input.now,
          ...demoFlags(input.demoMode),
        })
        .returning();
      if (!user) throw new Error('user insert returned nothing');
      const session = await createSession(tx, {
        userId: user.id,
        remember: false,
        now: input.now,
        ip: input.ip,
        userAgent: input.userAgent,
        passwordEntered: true,
      });
      await audit(tx, { userId: user.id, event: 'account_created', ip: input.ip, at: input.now });
      return { profile: toProfile(user, [], input.now), session };
    });
  } catch (error) {
    // Two registrations of one e-mail at the same instant: the unique index decides.
    if (pgCode(error) === UNIQUE_VIOLATION) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
    throw error;
  }
}
