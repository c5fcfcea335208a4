// Signing in with a passkey (docs/decisions/090). Usernameless: the options name no account and
// the authenticator offers the passkeys it holds for this site; its answer says which (the
// credential id and the user handle), and a session starts like a password sign-in, replacing the
// browser's previous one. With two-factor sign-in on, a passkey is enough on its own: it is
// already two factors (the device, and the PIN or biometric that unlocks it, which we require).
// A passkey also completes the second step of a password sign-in (the "second_factor" purpose).
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Profile } from '../../../contracts/me';
import { PASSKEY_MESSAGES, type AuthenticationOptions, type AuthenticationCredential } from '../../../contracts/passkeys';
import { TWO_FACTOR_MESSAGES } from '../../../contracts/two-factor';
import type { Db, DbOrTx } from '../../db/client';
import { passkeys, twoFactorChallenges, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { AppError, conflict } from '../../lib/errors';
import { hashToken, isWellFormedToken } from '../../lib/tokens';
import { inTransaction } from '../../lib/transaction';
import { createSession, deleteSession, type NewSession } from '../../plugins/session';
import { loadProfile } from '../auth';
import { limitPasskeyVerifyByIp, limitPasskeyVerifyByUser } from './limits';
import { consumeChallenge, newChallenge, storeChallenge, type ChallengeBinding } from './passkey-challenges';
import { userIdOfHandle, type RelyingParty } from './relying-party';
import { findPasskey, passkeyNotRecognised, verifyAssertion } from './verify-assertion';

const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

type SignedIn = { profile: Profile; session: NewSession };

/** Options for a usernameless sign-in: no allowCredentials, the authenticator chooses. */
export async function startPasskeySignIn(db: Db, input: { binding: ChallengeBinding; rp: RelyingParty; now: Date }) {
  const challenge = newChallenge();
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
  await storeChallenge(db, { purpose: 'sign_in', challenge: options.challenge, userId: null, binding: input.binding, now: input.now });
  return options as AuthenticationOptions;
}

async function startSession(
  tx: DbOrTx,
  input: { userId: string; remember: boolean; now: Date; ip: string; userAgent?: string; previousSessionId?: string; details: Record<string, unknown> },
): Promise<SignedIn> {
  if (input.previousSessionId) await deleteSession(tx, input.previousSessionId);
  // The passkey was just unlocked with a PIN or biometric: that counts as entering the password
  // for the card reveal's five minutes, as a password sign-in does.
  const session = await createSession(tx, { userId: input.userId, remember: input.remember, now: input.now, ip: input.ip, userAgent: input.userAgent, passwordEntered: true });
  await audit(tx, { userId: input.userId, event: 'sign_in', ip: input.ip, details: { rememberMe: input.remember, ...input.details }, at: input.now });
  const profile = await loadProfile(tx, input.userId, input.now);
  if (!profile) throw passkeyNotRecognised();
  return { profile, session };
}

export async function completePasskeySignIn(
  db: Db,
  input: {
    binding: ChallengeBinding | null;
    credential: AuthenticationCredential;
    rememberMe: boolean;
    rp: RelyingParty;
    now: Date;
    ip: string;
    userAgent?: string;
    previousSessionId?: string;
    log: FastifyBaseLogger;
  },
): Promise<SignedIn> {
  await limitPasskeyVerifyByIp(db, { ip: input.ip, now: input.now });
  const stored = await consumeChallenge(db, { purpose: 'sign_in', binding: input.binding, now: input.now });
  const row = await findPasskey(db, input.credential.id);
  // The authenticator's user handle must name the passkey's owner: a credential cannot be
  // presented under another account's handle.
  if (!row || userIdOfHandle(input.credential.response.userHandle) !== row.userId) {
    await audit(db, { userId: null, event: 'sign_in_failed', ip: input.ip, details: { reason: 'unknown_passkey' }, at: input.now });
    throw passkeyNotRecognised();
  }
  await limitPasskeyVerifyByUser(db, { userId: row.userId, ip: input.ip });
  try {
    await verifyAssertion(db, { row, credential: input.credential, challenge: stored.challenge, rp: input.rp, now: input.now, status: 401, log: input.log });
  } catch (error) {
    await audit(db, { userId: row.userId, event: 'sign_in_failed', ip: input.ip, details: { reason: 'passkey_rejected', passkeyId: row.id }, at: input.now });
    throw error;
  }
  return inTransaction(db, (tx) =>
    startSession(tx, {
      userId: row.userId,
      remember: input.rememberMe,
      now: input.now,
      ip: input.ip,
      userAgent: input.userAgent,
      previousSessionId: input.previousSessionId,
      details: { method: 'passkey', passkeyId: row.id },
    }),
  );
}

// ---- The second step of a password sign-in ------------------------------------------------------

const challengeExpired = () => new AppError(401, 'two_factor_challenge_expired', TWO_FACTOR_MESSAGES.challengeExpired);

async function liveTwoFactorChallenge(db: DbOrTx, challengeId: string, now: Date) {
  if (!isWellFormedToken(challengeId)) throw challengeExpired();
  const [row] = await db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, hashToken(challengeId)));
  if (!row || row.expiresAt.getTime() <= now.getTime()) throw challengeExpired();
  return row;
}

/** Options for the second step: the passkeys of the account whose password was right. */
export async function startPasskeySecondFactor(db: Db, input: { challengeId: string; binding: ChallengeBinding; rp: RelyingParty; now: Date }) {
  const twoFactor = await liveTwoFactorChallenge(db, input.challengeId, input.now);
  const own = await db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, twoFactor.userId));
  if (own.length === 0) throw conflict(PASSKEY_MESSAGES.noPasskeys, 'no_passkeys');
  const challenge = newChallenge();
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: own.map((row) => ({ id: row.credentialId, transports: row.transports })),
  });
  await storeChallenge(db, { purpose: 'second_factor', challenge: options.challenge, userId: twoFactor.userId, binding: input.binding, now: input.now });
  return options as AuthenticationOptions;
}

export async function completePasskeySecondFactor(
  db: Db,
  input: {
    challengeId: string;
    binding: ChallengeBinding | null;
    credential: AuthenticationCredential;
    rp: RelyingParty;
    now: Date;
    ip: string;
    userAgent?: string;
    previousSessionId?: string;
    log: FastifyBaseLogger;
  },
): Promise<SignedIn> {
  await limitPasskeyVerifyByIp(db, { ip: input.ip, now: input.now });
  const twoFactor = await liveTwoFactorChallenge(db, input.challengeId, input.now);
  const stored = await consumeChallenge(db, { purpose: 'second_factor', binding: input.binding, now: input.now });
  if (stored.userId !== twoFactor.userId) throw challengeExpired();
  await limitPasskeyVerifyByUser(db, { userId: twoFactor.userId, ip: input.ip });
  const row = await findPasskey(db, input.credential.id);
  if (!row || row.userId !== twoFactor.userId) {
    await audit(db, { userId: twoFactor.userId, event: 'sign_in_second_factor_failed', ip: input.ip, details: { reason: 'unknown_passkey' }, at: input.now });
    throw passkeyNotRecognised();
  }
  try {
    await verifyAssertion(db, { row, credential: input.credential, challenge: stored.challenge, rp: input.rp, now: input.now, status: 401, log: input.log });
  } catch (error) {
    await audit(db, { userId: row.userId, event: 'sign_in_second_factor_failed', ip: input.ip, details: { reason: 'passkey_rejected', passkeyId: row.id }, at: input.now });
    throw error;
  }
  return inTransaction(db, async (tx) => {
    // Spends the password step; a concurrent completion (a code, another passkey) had it first.
    const spent = await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, twoFactor.id)).returning({ id: twoFactorChallenges.id });
    if (spent.length === 0) throw challengeExpired();
    const [still] = await tx.select({ enabled: users.totpEnabled }).from(users).where(eq(users.id, twoFactor.userId));
    if (!still?.enabled) throw challengeExpired();
    return startSession(tx, {
      userId: twoFactor.userId,
      remember: twoFactor.remember,
      now: input.now,
      ip: input.ip,
      userAgent: input.userAgent,
      previousSessionId: input.previousSessionId,
      details: { secondFactor: 'passkey', passkeyId: row.id },
    });
  });
}
