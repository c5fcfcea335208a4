// Re-authentication with a passkey (before a card reveal, adding a passkey, turning on two-factor):
// the alternative to typing the password again. The options list the account's own passkeys and
// the challenge is bound to this session; a passkey of another account is refused. Like the
// password's re-authentication it marks the session, and the session is rotated (docs/rules.md#sessions:
// a new token at every re-authentication), so a token copied before this moment stops working.
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PASSKEY_MESSAGES, type AuthenticationOptions, type AuthenticationCredential } from '../../../contracts/passkeys';
import type { Db } from '../../db/client';
import { passkeys, sessions } from '../../db/schema';
import { audit } from '../../lib/audit';
import { conflict, unauthorized } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { createSession, deleteSession, type NewSession } from '../../plugins/session';
import { limitPasskeyVerifyByUser } from './limits';
import { consumeChallenge, newChallenge, storeChallenge } from './passkey-challenges';
import type { RelyingParty } from './relying-party';
import { findPasskey, passkeyNotRecognised, verifyAssertion } from './verify-assertion';

const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

export async function startPasskeyReauthentication(db: Db, input: { userId: string; sessionId: string; rp: RelyingParty; now: Date }) {
  const own = await db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, input.userId));
  if (own.length === 0) throw conflict(PASSKEY_MESSAGES.noPasskeys, 'no_passkeys');
  const challenge = newChallenge();
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: own.map((row) => ({ id: row.credentialId, transports: row.transports })),
  });
  await storeChallenge(db, { purpose: 'reauthenticate', challenge: options.challenge, userId: input.userId, binding: { sessionId: input.sessionId }, now: input.now });
  return options as AuthenticationOptions;
}

export async function reauthenticateWithPasskey(
  db: Db,
  input: { userId: string; sessionId: string; credential: AuthenticationCredential; rp: RelyingParty; now: Date; ip: string; userAgent?: string; log: FastifyBaseLogger },
): Promise<NewSession> {
  await limitPasskeyVerifyByUser(db, { userId: input.userId, ip: input.ip });
  const stored = await consumeChallenge(db, { purpose: 'reauthenticate', binding: { sessionId: input.sessionId }, now: input.now });
  const row = await findPasskey(db, input.credential.id);
  if (!row || row.userId !== input.userId || stored.userId !== input.userId) {
    await audit(db, { userId: input.userId, event: 'reauthentication_failed', ip: input.ip, details: { method: 'passkey', reason: 'unknown_passkey' }, at: input.now });
    throw passkeyNotRecognised(400);
  }
  try {
    await verifyAssertion(db, { row, credential: input.credential, challenge: stored.challenge, rp: input.rp, now: input.now, status: 400, log: input.log });
  } catch (error) {
    await audit(db, { userId: input.userId, event: 'reauthentication_failed', ip: input.ip, details: { method: 'passkey', passkeyId: row.id }, at: input.now });
    throw error;
  }
  return inTransaction(db, async (tx) => {
    const [current] = await tx.select({ remember: sessions.remember, createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, input.sessionId));
    if (!current) throw unauthorized();
    await deleteSession(tx, input.sessionId);
    const session = await createSession(tx, {
      userId: input.userId,
      remember: current.remember,
      now: input.now,
      ip: input.ip,
      userAgent: input.userAgent,
      passwordEntered: true,
      signedInAt: current.createdAt,
    });
    await audit(tx, { userId: input.userId, event: 'reauthenticated', ip: input.ip, details: { method: 'passkey', passkeyId: row.id }, at: input.now });
    return session;
  });
}
