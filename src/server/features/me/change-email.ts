// Settings → Profile: change the sign-in e-mail (docs/rules.md#passwords; docs/rules.md#reauthentication: the current password is
// checked). The old address is told, so a hijacked account does not change hands silently.
import { and, eq, ne } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Profile } from '../../../contracts/me';
import type { Mailer } from '../../adapters/mailer';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { badRequest, conflict, unauthorized } from '../../lib/errors';
import { inTransaction, pgCode } from '../../lib/transaction';
import { checkCurrentPassword, emailChangedEmail, loadProfile } from '../auth';

export async function changeEmail(
  db: Db,
  mailer: Mailer,
  input: { userId: string; email: string; currentPassword: string; now: Date; ip: string; appUrl: string },
): Promise<Profile> {
  const { email: oldEmail } = await checkCurrentPassword(db, {
    userId: input.userId,
    password: input.currentPassword,
    now: input.now,
    ip: input.ip,
    failureEvent: 'email_change_failed',
    wrongMessage: AUTH_MESSAGES.currentPasswordWrong,
  });
  // Asked after the password, like every answer of this endpoint: "saved" would tell the user
  // something changed when nothing did.
  if (input.email === oldEmail) throw badRequest(AUTH_MESSAGES.sameEmail);
  try {
    return await inTransaction(db, async (tx) => {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, input.email), ne(users.id, input.userId)));
      if (taken) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
      await tx.update(users).set({ email: input.email, lastUpdated: input.now }).where(eq(users.id, input.userId));
      await mailer.enqueue(emailChangedEmail({ to: oldEmail, newEmail: input.email, appUrl: input.appUrl }), tx);
      await audit(tx, { userId: input.userId, event: 'email_changed', ip: input.ip, details: { from: oldEmail, to: input.email }, at: input.now });
      const profile = await loadProfile(tx, input.userId, input.now);
      if (!profile) throw unauthorized();
      return profile;
    });
  } catch (error) {
    if (pgCode(error) === '23505') throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
    throw error;
  }
}
