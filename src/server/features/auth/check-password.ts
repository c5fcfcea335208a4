// The "enter your current password" check of a signed-in user (docs/rules.md#reauthentication: e-mail and
// password change need it; the card reveal asks for it again). Rate-limited per IP, and its
// failures per account and IP, so a stolen session cannot be used to guess the password.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { audit, type AuditEvent } from '../../lib/audit';
import { AppError, unauthorized } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { limitPasswordChecks } from './limits';

export async function checkCurrentPassword(
  db: Db,
  input: { userId: string; password: string; now: Date; ip: string; failureEvent: AuditEvent; wrongMessage: string },
): Promise<{ email: string }> {
  const failures = await limitPasswordChecks(db, { userId: input.userId, ip: input.ip });
  const [user] = await db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, input.userId));
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.passwordHash, input.password, input.ip))) {
    await failures.failed();
    await audit(db, { userId: input.userId, event: input.failureEvent, ip: input.ip, at: input.now });
    throw new AppError(400, 'wrong_password', input.wrongMessage);
  }
  await failures.succeeded();
  return { email: user.email };
}
