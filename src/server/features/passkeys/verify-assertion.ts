// Checks a passkey's answer to an authentication challenge (sign-in, second factor,
// re-authentication) with @simplewebauthn/server: the signature over the challenge with the stored
// public key, the origin and RP ID from APP_URL, user verification (a PIN or biometric on the
// device), and a signature counter that moved on. The stored counter, last use and backup flag
// are updated only if nobody used the passkey in the meantime.
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PASSKEY_MESSAGES, type AuthenticationCredential } from '../../../contracts/passkeys';
import type { DbOrTx } from '../../db/client';
import { passkeys } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { RelyingParty } from './relying-party';

export type PasskeyRow = typeof passkeys.$inferSelect;

export const passkeyNotRecognised = (status = 401) => new AppError(status, 'passkey_not_recognised', PASSKEY_MESSAGES.notRecognised);
export const passkeyRejected = (status = 401) => new AppError(status, 'passkey_rejected', PASSKEY_MESSAGES.rejected);

export async function findPasskey(db: DbOrTx, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

/**
 * Verifies `credential` against `row` and the expected challenge; records the use. Throws
 * `passkey_rejected` with `status` when it does not verify (the reason goes to the log only).
 */
export async function verifyAssertion(
  db: DbOrTx,
  input: { row: PasskeyRow; credential: AuthenticationCredential; challenge: string; rp: RelyingParty; now: Date; status: number; log: FastifyBaseLogger },
): Promise<void> {
  let newCounter: number;
  let backedUp: boolean;
  try {
    const result = await verifyAuthenticationResponse({
      response: input.credential as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge: input.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      requireUserVerification: true,
      credential: {
        id: input.row.credentialId,
        publicKey: new Uint8Array(Buffer.from(input.row.publicKey, 'base64url')),
        counter: input.row.counter,
        transports: input.row.transports,
      },
    });
    if (!result.verified) throw new Error('signature did not verify');
    newCounter = result.authenticationInfo.newCounter;
    backedUp = result.authenticationInfo.credentialBackedUp;
  } catch (error) {
    input.log.info({ passkeyId: input.row.id, reason: error instanceof Error ? error.message : 'unknown' }, 'passkey answer refused');
    throw passkeyRejected(input.status);
  }
  const updated = await db
    .update(passkeys)
    .set({ counter: newCounter, backedUp, lastUsedAt: input.now })
    .where(and(eq(passkeys.id, input.row.id), eq(passkeys.counter, input.row.counter)))
    .returning({ id: passkeys.id });
  // Used at the same moment by another answer with the same counter: one of the two is a copy.
  if (updated.length === 0) throw passkeyRejected(input.status);
}
