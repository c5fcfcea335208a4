// Settings → Security: change the password (docs/rules.md#passwords; docs/rules.md#reauthentication: the current password is
// checked, the register rule applies). Every other session of the account ends; this one stays.
import { eq } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Mailer } from '../../adapters/mailer';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { hashPassword } from '../../lib/passwords';
import { inTransaction } from '../../lib/transaction';
import { deleteUserSessions } from '../../plugins/session';
import { checkCurrentPassword, passwordChangedEmail, revokeResetTokens } from '../auth';

export async function changePassword(
  db: Db,
  mailer: Mailer,
  input: { userId: string; sessionId: string; currentPassword: string; newPassword: string; now: Date; ip: string; appUrl: string },
): Promise<void> {
  const { email } = await checkCurrentPassword(db, {
    userId: input.userId,
    password: input.currentPassword,
    now: input.now,
    ip: input.ip,
    failureEvent: 'password_change_failed',
    wrongMessage: AUTH_MESSAGES.currentPasswordWrong,
  });
  const passwordHash = await hashPassword(input.newPassword, input.ip);
  await inTransaction(db, async (tx) => {
    await tx.update(users).set({ passwordHash, lastUpdated: input.now }).where(eq(users.id, input.userId));
    await revokeResetTokens(tx, input.userId, input.now);
    const endedSessions = await deleteUserSessions(tx, input.userId, input.sessionId);
    await mailer.enqueue(passwordChangedEmail({ to: email, appUrl: input.appUrl }), tx);
    await audit(tx, { userId: input.userId, event: 'password_changed', ip: input.ip, details: { endedSessions }, at: input.now });
  });
}
