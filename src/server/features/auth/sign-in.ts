// Sign-in (docs/rules.md#passwords): one answer for an unknown e-mail and a wrong password, in the same
// time (the unknown e-mail is checked against a dummy hash); a new session on success, or with
// two-factor sign-in on, a challenge for the second step (docs/decisions/014).
import { eq } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Profile } from '../../../contracts/me';
import type { Db } from '../../db/client';
import { passkeys } from '../../db/schema';
import { audit } from '../../lib/audit';
import type { ClientGone } from '../../lib/argon2-pool';
import { AppError } from '../../lib/errors';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import { changed } from '../../lib/transaction';
import type { NewSession } from '../../plugins/session';
import { toProfile } from './get-profile';
import type { FailureCounter } from './limits';
import { accountByEmail, createSignedInSession } from './sign-in-statements';
import { createTwoFactorChallenge } from './two-factor-sign-in';

export const invalidCredentials = () => new AppError(401, 'invalid_credentials', AUTH_MESSAGES.invalidCredentials);

export async function signIn(
  db: Db,
  input: {
    email: string;
    password: string;
    rememberMe: boolean;
    now: Date;
    ip: string;
    userAgent?: string;
    /** The session the browser had before, if any: replaced, never reused (session fixation). */
    previousSessionId?: string;
    /** This e-mail's failures from this address (limits.ts `limitSignIn`). */
    failures: FailureCounter;
    /** Whether the client stopped waiting: its password is then not checked if still queued (503). */
    clientGone?: ClientGone;
  },
): Promise<{ profile: Profile; session: NewSession } | { challengeId: string; passkeyAvailable: boolean }> {
  const [user] = await accountByEmail(db, { email: input.email });
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password, input.ip, input.clientGone)
    : await verifyAgainstDummy(input.password, input.ip, input.clientGone);
  if (!user || !ok) {
    await input.failures.failed();
    await audit(db, {
      userId: user?.id ?? null,
      event: 'sign_in_failed',
      ip: input.ip,
      details: { reason: user ? 'wrong_password' : 'unknown_email', ...(user ? {} : { email: input.email }) },
      at: input.now,
    });
    throw invalidCredentials();
  }
  await input.failures.succeeded();
  // Two-factor sign-in on: the password was right, but no session until the second step.
  if (user.totpEnabled) {
    const challengeId = await createTwoFactorChallenge(db, { userId: user.id, remember: input.rememberMe, now: input.now, ip: input.ip });
    // A passkey can complete the step instead of a code (docs/decisions/090).
    const [passkey] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, user.id)).limit(1);
    return { challengeId, passkeyAvailable: passkey !== undefined };
  }
  const signedIn = await createSignedInSession(db, {
    userId: user.id,
    remember: input.rememberMe,
    now: input.now,
    ip: input.ip,
    userAgent: input.userAgent,
    previousSessionId: input.previousSessionId,
  });
  // The statement has committed: no instance may go on accepting the replaced session from its cache.
  if (input.previousSessionId) changed(db, { kind: 'session', sessionId: input.previousSessionId });
  return { profile: toProfile(signedIn.user, signedIn.methods, input.now), session: signedIn.session };
}
