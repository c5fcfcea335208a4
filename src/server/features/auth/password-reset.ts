// Password reset (docs/rules.md#password-reset): the request answers the same whether or not the e-mail has an
// account; the e-mailed link holds a single-use token valid for one hour, stored hashed.
// Confirming it sets the password and ends every session of the account. An account gets at most
// RESET_EMAILS_PER_HOUR of these e-mails in any hour (decision 176).
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Mailer } from '../../adapters/mailer';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { auditLog, passwordResetTokens, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import { inTransaction } from '../../lib/transaction';
import { deleteUserSessions } from '../../plugins/session';
import { closedAccountResetEmail, passwordChangedEmail, passwordResetEmail, RESET_LINK_VALID_MINUTES } from './emails';

export const RESET_TOKEN_TTL_MS = RESET_LINK_VALID_MINUTES * 60 * 1000;

export const invalidResetToken = () => new AppError(400, 'invalid_token', AUTH_MESSAGES.resetTokenInvalid);

/**
 * Reset e-mails one account is sent in any hour (decision 176). The per-address request limit
 * (3 a minute, decision 082) still let a stranger send an address 180 of them an hour. A request
 * past this sends nothing new, and answers as every other: the links sent in the last hour are
 * still valid (a link lasts an hour), so a stranger's requests never keep the owner from resetting.
 */
export const RESET_EMAILS_PER_HOUR = 3;
const HOUR_MS = 60 * 60 * 1000;

/** The reset e-mails (links, or the closed account's notice) sent to the account in the hour before `now`. */
async function resetEmailsInLastHour(tx: Tx, userId: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ sent: count() })
    .from(auditLog)
    .where(and(eq(auditLog.userId, userId), eq(auditLog.event, 'password_reset_requested'), gt(auditLog.createdAt, new Date(now.getTime() - HOUR_MS))));
  return row?.sent ?? 0;
}

/** Returns whether a message was queued, for tests only: the HTTP answer never depends on it. */
export async function requestPasswordReset(
  db: Db,
  mailer: Mailer,
  input: { email: string; now: Date; ip: string; appUrl: string },
): Promise<boolean> {
  const [user] = await db.select({ id: users.id, email: users.email, closedAt: users.closedAt }).from(users).where(eq(users.email, input.email));
  if (!user) {
    await audit(db, { userId: null, event: 'password_reset_requested', ip: input.ip, details: { email: input.email, known: false }, at: input.now });
    return false;
  }
  return inTransaction(db, async (tx) => {
    // The account's row locked: concurrent requests take turns, so none sends past the hour's cap.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
    if ((await resetEmailsInLastHour(tx, user.id, input.now)) >= RESET_EMAILS_PER_HOUR) {
      // Not a `password_reset_requested`: the owner's security activity (decision 166) lists the
      // e-mails they were sent, not every request a stranger made.
      await audit(tx, { userId: user.id, event: 'password_reset_not_sent', ip: input.ip, details: { reason: 'hourly_cap', closed: user.closedAt !== null }, at: input.now });
      return false;
    }
    // A closed account (decision 165) gets no link: its owner, coming back, is told it is closed and
    // whom to write to. Only the mailbox's owner reads that, and the answer is the one every e-mail gets.
    if (user.closedAt) {
      await mailer.enqueue(closedAccountResetEmail({ to: user.email }), tx);
      await audit(tx, { userId: user.id, event: 'password_reset_requested', ip: input.ip, details: { known: true, closed: true }, at: input.now });
      return true;
    }
    const token = newToken();
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: input.now,
      expiresAt: new Date(input.now.getTime() + RESET_TOKEN_TTL_MS),
    });
    await mailer.enqueue(passwordResetEmail({ to: user.email, appUrl: input.appUrl, token }), tx);
    await audit(tx, { userId: user.id, event: 'password_reset_requested', ip: input.ip, details: { known: true }, at: input.now });
    return true;
  });
}

/** Marks every unused reset link of the user as used (after any password change). */
export async function revokeResetTokens(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export async function confirmPasswordReset(
  db: Db,
  mailer: Mailer,
  input: { token: string; password: string; now: Date; ip: string; appUrl: string },
): Promise<{ userId: string }> {
  const liveToken = and(eq(passwordResetTokens.tokenHash, hashToken(input.token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, input.now));
  // The link first (one indexed read), the new password's hash after: a made-up or spent token costs
  // no argon2id (decision 177), and the hash is counted against the caller's address in the pool's
  // fair queue (decision 080), as every other hash is.
  const [live] = await db.select({ id: passwordResetTokens.id }).from(passwordResetTokens).where(liveToken);
  if (!live) throw invalidResetToken();
  const passwordHash = await hashPassword(input.password, input.ip);
  return inTransaction(db, async (tx) => {
    // Claiming the token is one conditional update: of two concurrent uses, only one succeeds.
    const [claimed] = await tx.update(passwordResetTokens).set({ usedAt: input.now }).where(liveToken).returning({ userId: passwordResetTokens.userId });
    if (!claimed) throw invalidResetToken();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, lastReset: input.now, lastUpdated: input.now })
      .where(and(eq(users.id, claimed.userId), isNull(users.closedAt)))
      .returning({ id: users.id, email: users.email });
    if (!user) throw invalidResetToken();
    await revokeResetTokens(tx, user.id, input.now);
    const endedSessions = await deleteUserSessions(tx, user.id);
    await mailer.enqueue(passwordChangedEmail({ to: user.email, appUrl: input.appUrl }), tx);
    await audit(tx, { userId: user.id, event: 'password_reset', ip: input.ip, details: { endedSessions }, at: input.now });
    return { userId: user.id };
  });
}
