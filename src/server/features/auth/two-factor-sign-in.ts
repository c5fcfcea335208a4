// Sign-in with two-factor on (docs/decisions/014). A right password makes a challenge instead of a
// session: a random id (only its SHA-256 stored) valid 5 minutes for at most 5 codes. The second
// step spends the challenge and a TOTP step or a recovery code, and creates the session with the
// remember-me choice of the first step, all in one transaction.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Profile } from '../../../contracts/me';
import { TWO_FACTOR_MESSAGES, parseSecondFactorCode } from '../../../contracts/two-factor';
import type { Db, DbOrTx } from '../../db/client';
import { twoFactorChallenges, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { hashToken, isWellFormedToken, newToken } from '../../lib/tokens';
import { inTransaction } from '../../lib/transaction';
import { createSession, deleteSession, type NewSession } from '../../plugins/session';
import { loadProfile } from './get-profile';
import type { Mailer } from '../../adapters/mailer';
import { limitTwoFactorByIp, limitTwoFactorFailures } from './limits';
import { consumeSecondFactor, invalidCode, matchSecondFactor, remainingRecoveryCodes } from './two-factor';
import { afterUnlock, clearTwoFactorLock, recordWrongSecondFactor, resendUnlockLinkIfNoneLive, twoFactorLocked } from './two-factor-lock';

export const CHALLENGE_VALID_MS = 5 * 60 * 1000;
export const CHALLENGE_MAX_ATTEMPTS = 5;

const challengeExpired = () => new AppError(401, 'two_factor_challenge_expired', TWO_FACTOR_MESSAGES.challengeExpired);
const tooManyAttempts = () => new AppError(401, 'two_factor_attempts_exhausted', TWO_FACTOR_MESSAGES.tooManyAttempts);

/** Stores a challenge for a user whose password was right; returns its id for the browser. */
export async function createTwoFactorChallenge(db: DbOrTx, input: { userId: string; remember: boolean; now: Date; ip: string }): Promise<string> {
  const token = newToken();
  await db.insert(twoFactorChallenges).values({
    userId: input.userId,
    tokenHash: hashToken(token),
    remember: input.remember,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + CHALLENGE_VALID_MS),
  });
  await audit(db, { userId: input.userId, event: 'sign_in_second_factor_required', ip: input.ip, details: { rememberMe: input.remember }, at: input.now });
  return token;
}

export async function completeTwoFactorSignIn(
  db: Db,
  mailer: Mailer,
  input: {
    challengeId: string;
    code: string;
    key: Buffer;
    now: Date;
    ip: string;
    appUrl: string;
    userAgent?: string;
    /** The session the browser had before, if any: replaced, never reused (session fixation). */
    previousSessionId?: string;
  },
): Promise<{ profile: Profile; session: NewSession }> {
  // Per IP first, like sign-in: a client spraying codes is stopped before it can touch an account.
  await limitTwoFactorByIp(db, { ip: input.ip });
  if (!isWellFormedToken(input.challengeId)) throw challengeExpired();
  const [challenge] = await db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, hashToken(input.challengeId)));
  if (!challenge) throw challengeExpired();
  if (challenge.expiresAt.getTime() <= input.now.getTime()) {
    await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, challenge.id));
    throw challengeExpired();
  }
  // Failures per account and IP: a stranger's guesses never use up the owner's allowance.
  const failures = await limitTwoFactorFailures(db, { userId: challenge.userId, ip: input.ip });

  // Count the attempt before looking at the code: concurrent guesses cannot exceed the limit.
  const [claimed] = await db
    .update(twoFactorChallenges)
    .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
    .where(
      and(
        eq(twoFactorChallenges.id, challenge.id),
        lt(twoFactorChallenges.attempts, CHALLENGE_MAX_ATTEMPTS),
        gt(twoFactorChallenges.expiresAt, input.now),
      ),
    )
    .returning({ attempts: twoFactorChallenges.attempts });
  if (!claimed) {
    await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, challenge.id));
    throw tooManyAttempts();
  }

  const [user] = await db
    .select({ enabled: users.totpEnabled, secretEnc: users.totpSecretEnc, lastStep: users.totpLastStep, lockedAt: users.totpLockedAt })
    .from(users)
    .where(eq(users.id, challenge.userId));
  if (!user?.enabled) {
    // Two-factor was turned off since the password step: start again with the password.
    await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, challenge.id));
    throw challengeExpired();
  }

  const failed = async (reason: string) => {
    await failures.failed();
    const locked = reason === 'wrong_code' && (await recordWrongSecondFactor(db, mailer, { userId: challenge.userId, now: input.now, ip: input.ip, appUrl: input.appUrl }));
    await audit(db, {
      userId: challenge.userId,
      event: 'sign_in_second_factor_failed',
      ip: input.ip,
      details: { reason, attempt: claimed.attempts },
      at: input.now,
    });
    if (claimed.attempts >= CHALLENGE_MAX_ATTEMPTS) {
      await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, challenge.id));
      return tooManyAttempts();
    }
    return locked ? twoFactorLocked() : invalidCode(401);
  };

  // Locked by the daily cap: codes from the app are not even looked at (nor counted); a recovery code is.
  const parsed = parseSecondFactorCode(input.code);
  if (user.lockedAt && parsed?.kind === 'totp') {
    await audit(db, { userId: challenge.userId, event: 'sign_in_second_factor_failed', ip: input.ip, details: { reason: 'locked', attempt: claimed.attempts }, at: input.now });
    await resendUnlockLinkIfNoneLive(db, mailer, { userId: challenge.userId, now: input.now, ip: input.ip, appUrl: input.appUrl });
    throw twoFactorLocked();
  }

  const match = await matchSecondFactor(db, {
    userId: challenge.userId,
    code: input.code,
    key: input.key,
    now: input.now,
    secretEnc: user.secretEnc,
    lastStep: user.lastStep,
  });
  if (!match) throw await failed('wrong_code');

  const outcome = await inTransaction(db, async (tx) => {
    // Spent by a concurrent request: nothing was written yet, so this transaction changes nothing.
    if (!(await consumeSecondFactor(tx, challenge.userId, match, input.now))) return 'code_already_used' as const;
    const spent = await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, challenge.id)).returning({ id: twoFactorChallenges.id });
    if (spent.length === 0) throw challengeExpired(); // another request completed this challenge (rolls back the code too)
    if (input.previousSessionId) await deleteSession(tx, input.previousSessionId);
    const session = await createSession(tx, {
      userId: challenge.userId,
      remember: challenge.remember,
      now: input.now,
      ip: input.ip,
      userAgent: input.userAgent,
      passwordEntered: true,
    });
    await audit(tx, {
      userId: challenge.userId,
      event: 'sign_in',
      ip: input.ip,
      details: { rememberMe: challenge.remember, secondFactor: match.kind },
      at: input.now,
    });
    let unlocked = false;
    if (match.kind === 'recovery_code') {
      const remaining = await remainingRecoveryCodes(tx, challenge.userId);
      await audit(tx, { userId: challenge.userId, event: 'recovery_code_used', ip: input.ip, details: { remaining }, at: input.now });
      unlocked = await clearTwoFactorLock(tx, challenge.userId);
      if (unlocked) await audit(tx, { userId: challenge.userId, event: 'two_factor_unlocked', ip: input.ip, details: { by: 'recovery_code' }, at: input.now });
    }
    const profile = await loadProfile(tx, challenge.userId, input.now);
    if (!profile) throw challengeExpired();
    return { profile, session, unlocked };
  });
  // Nothing was written: the challenge stays for another code.
  if (outcome === 'code_already_used') throw await failed('code_already_used');
  await failures.succeeded();
  if (outcome.unlocked) await afterUnlock(db, challenge.userId);
  return { profile: outcome.profile, session: outcome.session };
}

/** Challenges that can no longer be used (scheduled with the other account purges). */
export async function purgeTwoFactorChallenges(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(twoFactorChallenges).where(lt(twoFactorChallenges.expiresAt, now));
}
