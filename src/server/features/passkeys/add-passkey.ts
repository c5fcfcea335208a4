// Settings → Security → Add a passkey (docs/decisions/090). Two steps: the options (a challenge
// bound to this session, the account's existing passkeys excluded so one authenticator is not
// added twice), then the browser's answer, checked with @simplewebauthn/server ("none"
// attestation: we trust the device's signature, not its make) and stored: credential id, public
// key, counter, transports and backup flags. Both steps need the password (or a passkey) entered
// in this session within 5 minutes: a stolen session alone cannot plant a way back in.
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { count, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_PASSKEYS_PER_ACCOUNT, PASSKEY_MESSAGES, type RegistrationOptions, type Passkey, type RegistrationCredential } from '../../../contracts/passkeys';
import type { Db, DbOrTx } from '../../db/client';
import { passkeys, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { AppError, conflict, unauthorized } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { consumeChallenge, newChallenge, storeChallenge } from './passkey-challenges';
import { userHandleOf, type RelyingParty } from './relying-party';
import { toPasskey } from './list-passkeys';

export const ADD_PASSKEY_REAUTH_WINDOW_MS = 5 * 60 * 1000;
const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

const limitReached = () => conflict(PASSKEY_MESSAGES.limitReached, 'passkey_limit_reached');
const alreadyRegistered = () => conflict(PASSKEY_MESSAGES.alreadyRegistered, 'passkey_already_registered');

async function countPasskeys(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

export async function startAddingPasskey(db: Db, input: { userId: string; sessionId: string; rp: RelyingParty; now: Date }) {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
  if (!user) throw unauthorized();
  const existing = await db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, input.userId));
  if (existing.length >= MAX_PASSKEYS_PER_ACCOUNT) throw limitReached();
  const challenge = newChallenge();
  const options = await generateRegistrationOptions({
    rpName: input.rp.name,
    rpID: input.rp.id,
    userName: user.email,
    userDisplayName: user.email,
    userID: userHandleOf(input.userId),
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports })),
    // A discoverable credential (usernameless sign-in) with a PIN or biometric.
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  await storeChallenge(db, { purpose: 'register', challenge: options.challenge, userId: input.userId, binding: { sessionId: input.sessionId }, now: input.now });
  return options as RegistrationOptions;
}

export async function addPasskey(
  db: Db,
  input: { userId: string; sessionId: string; name: string; credential: RegistrationCredential; rp: RelyingParty; now: Date; ip: string; log: FastifyBaseLogger },
): Promise<Passkey> {
  const stored = await consumeChallenge(db, { purpose: 'register', binding: { sessionId: input.sessionId }, now: input.now });
  if (stored.userId !== input.userId) throw new AppError(400, 'passkey_challenge_expired', PASSKEY_MESSAGES.challengeExpired);
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response: input.credential as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: stored.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      requireUserVerification: true,
    });
    if (!result.verified) throw new Error('registration did not verify');
    info = result.registrationInfo;
  } catch (error) {
    input.log.info({ reason: error instanceof Error ? error.message : 'unknown' }, 'passkey registration refused');
    await audit(db, { userId: input.userId, event: 'passkey_add_failed', ip: input.ip, at: input.now });
    throw new AppError(400, 'passkey_rejected', PASSKEY_MESSAGES.rejected);
  }
  const credentialId = info.credential.id;
  return inTransaction(db, async (tx) => {
    // The account row locked: two additions at once cannot both pass the limit. An account closed
    // since this request's session was checked takes no new way in (decision 165).
    const [account] = await tx.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, input.userId)).for('no key update');
    if (!account || account.closedAt) throw unauthorized();
    if ((await countPasskeys(tx, input.userId)) >= MAX_PASSKEYS_PER_ACCOUNT) throw limitReached();
    const [taken] = await tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.credentialId, credentialId));
    if (taken) throw alreadyRegistered();
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: input.userId,
        credentialId,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (input.credential.response.transports ?? []).slice(0, 10),
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
        name: input.name,
        createdAt: input.now,
      })
      .returning();
    if (!row) throw new Error('passkey insert returned nothing');
    await audit(tx, { userId: input.userId, event: 'passkey_added', ip: input.ip, details: { passkeyId: row.id, backedUp: row.backedUp }, at: input.now });
    return toPasskey(row);
  });
}
