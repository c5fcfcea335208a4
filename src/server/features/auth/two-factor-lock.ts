// The daily cap on wrong second-factor codes (docs/rules.md#security, decision 083). A wrong code counts
// against the account whatever address it came from; the 20th in a day pauses codes from the
// authenticator app (users.totp_locked_at) and e-mails the owner a single-use unlock link (a
// random token, only its SHA-256 stored, valid 1 hour, like a reset link). Recovery codes keep
// working, and using one unlocks too. Only someone who knows the password reaches a code check,
// so a stranger cannot set this off.
import { and, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { TWO_FACTOR_MESSAGES } from '../../../contracts/two-factor';
import type { Mailer } from '../../adapters/mailer';
import type { Db, DbOrTx } from '../../db/client';
import { twoFactorUnlockTokens, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { hashToken, isWellFormedToken, newToken } from '../../lib/tokens';
import { inTransaction } from '../../lib/transaction';
import { UNLOCK_LINK_VALID_MINUTES, twoFactorLockedEmail } from './emails';
import { AUTH_RATE_LIMITS, countDailyTwoFactorFailure, limitTokenChecks, resetDailyTwoFactorFailures } from './limits';

export const UNLOCK_LINK_VALID_MS = UNLOCK_LINK_VALID_MINUTES * 60 * 1000;

export const twoFactorLocked = (status: 400 | 401 = 401) => new AppError(status, 'two_factor_locked', TWO_FACTOR_MESSAGES.locked);

/**
 * Counts one wrong code against the daily cap; when it is reached, locks the factor and queues the
 * e-mail in the same transaction. True when the factor is (now) locked.
 */
export async function recordWrongSecondFactor(db: Db, mailer: Mailer, input: { userId: string; now: Date; ip: string; appUrl: string }): Promise<boolean> {
  if (!(await countDailyTwoFactorFailure(db, input.userId))) return false;
  return inTransaction(db, async (tx) => {
    // Only the request that locks it sends the e-mail.
    const [locked] = await tx
      .update(users)
      .set({ totpLockedAt: input.now })
      .where(and(eq(users.id, input.userId), eq(users.totpEnabled, true), isNull(users.totpLockedAt)))
      .returning({ email: users.email });
    if (!locked) return true;
    const token = newToken();
    await tx.insert(twoFactorUnlockTokens).values({
      userId: input.userId,
      tokenHash: hashToken(token),
      createdAt: input.now,
      expiresAt: new Date(input.now.getTime() + UNLOCK_LINK_VALID_MS),
    });
    await mailer.enqueue(twoFactorLockedEmail({ to: locked.email, appUrl: input.appUrl, token, wrongCodes: AUTH_RATE_LIMITS.twoFactorDailyFailures }), tx);
    await audit(tx, { userId: input.userId, event: 'two_factor_locked', ip: input.ip, details: { wrongCodes: AUTH_RATE_LIMITS.twoFactorDailyFailures }, at: input.now });
    return true;
  });
}

/**
 * A code from the app while locked: when no unlock link is still valid (the last one expired or
 * was lost), a new one is e-mailed, so an owner without recovery codes is never stuck. At most
 * one live link at a time; the attempt itself is answered `two_factor_locked` either way.
 */
export async function resendUnlockLinkIfNoneLive(db: Db, mailer: Mailer, input: { userId: string; now: Date; ip: string; appUrl: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    // Locked, with two-factor on; the row lock makes concurrent attempts take turns here.
    const [user] = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, input.userId), eq(users.totpEnabled, true), isNotNull(users.totpLockedAt)))
      .for('no key update');
    if (!user) return;
    const live = await tx
      .select({ id: twoFactorUnlockTokens.id })
      .from(twoFactorUnlockTokens)
      .where(and(eq(twoFactorUnlockTokens.userId, input.userId), isNull(twoFactorUnlockTokens.usedAt), gt(twoFactorUnlockTokens.expiresAt, input.now)))
      .limit(1);
    if (live.length > 0) return;
    const token = newToken();
    await tx.insert(twoFactorUnlockTokens).values({ userId: input.userId, tokenHash: hashToken(token), createdAt: input.now, expiresAt: new Date(input.now.getTime() + UNLOCK_LINK_VALID_MS) });
    await mailer.enqueue(twoFactorLockedEmail({ to: user.email, appUrl: input.appUrl, token, wrongCodes: AUTH_RATE_LIMITS.twoFactorDailyFailures }), tx);
    await audit(tx, { userId: input.userId, event: 'two_factor_unlock_link_resent', ip: input.ip, at: input.now });
  });
}

/** Clears the lock inside the caller's transaction (a recovery code was used); its links stop working. */
export async function clearTwoFactorLock(tx: DbOrTx, userId: string): Promise<boolean> {
  const rows = await tx.update(users).set({ totpLockedAt: null }).where(and(eq(users.id, userId), isNotNull(users.totpLockedAt))).returning({ id: users.id });
  await tx.delete(twoFactorUnlockTokens).where(eq(twoFactorUnlockTokens.userId, userId));
  return rows.length === 1;
}

/** After the transaction that unlocked commits: a fresh daily allowance. */
export async function afterUnlock(db: Db, userId: string): Promise<void> {
  await resetDailyTwoFactorFailures(db, userId);
}

const invalidLink = () => new AppError(400, 'invalid_token', TWO_FACTOR_MESSAGES.unlockLinkInvalid);

/** The e-mailed link: spends the token and unlocks codes from the app. */
export async function unlockTwoFactor(db: Db, input: { token: string; now: Date; ip: string }): Promise<void> {
  await limitTokenChecks(db, { ip: input.ip });
  if (!isWellFormedToken(input.token)) throw invalidLink();
  const userId = await inTransaction(db, async (tx) => {
    const [spent] = await tx
      .update(twoFactorUnlockTokens)
      .set({ usedAt: input.now })
      .where(
        and(
          eq(twoFactorUnlockTokens.tokenHash, hashToken(input.token)),
          isNull(twoFactorUnlockTokens.usedAt),
          gt(twoFactorUnlockTokens.expiresAt, input.now),
        ),
      )
      .returning({ userId: twoFactorUnlockTokens.userId });
    if (!spent) return null;
    await clearTwoFactorLock(tx, spent.userId);
    await audit(tx, { userId: spent.userId, event: 'two_factor_unlocked', ip: input.ip, details: { by: 'email_link' }, at: input.now });
    return spent.userId;
  });
  if (!userId) throw invalidLink();
  await afterUnlock(db, userId);
}

/** Links that can no longer be used (scheduled with the other account purges). */
export async function purgeUnlockTokens(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(twoFactorUnlockTokens).where(or(lt(twoFactorUnlockTokens.expiresAt, now), isNotNull(twoFactorUnlockTokens.usedAt)));
}
