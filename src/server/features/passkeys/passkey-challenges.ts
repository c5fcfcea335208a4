// WebAuthn challenges (docs/decisions/090): 32 random bytes, stored server-side, valid 5 minutes
// and spent by the first answer, right or wrong (deleted with RETURNING, so two answers racing
// for one challenge cannot both have it). A challenge is bound either to the session that asked
// for it or, before there is a session (signing in), to a random token in an HttpOnly cookie of
// which only the SHA-256 is stored: an answer made for one browser cannot be used by another.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import { PASSKEY_MESSAGES } from '../../../contracts/passkeys';
import type { DbOrTx } from '../../db/client';
import { passkeyChallenges } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { hashToken, isWellFormedToken, newToken } from '../../lib/tokens';

export const PASSKEY_CHALLENGE_VALID_MS = 5 * 60 * 1000;
export const PASSKEY_CHALLENGE_COOKIE = 'pw_passkey';

export type ChallengePurpose = 'register' | 'sign_in' | 'second_factor' | 'reauthenticate';
export type ChallengeBinding = { sessionId: string } | { cookieToken: string };
export type StoredChallenge = { challenge: string; userId: string | null };

export const challengeExpired = () => new AppError(400, 'passkey_challenge_expired', PASSKEY_MESSAGES.challengeExpired);

export function newChallenge(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Stores a challenge. A session holds one live challenge per purpose: asking again replaces it,
 * so a page opened twice cannot pile rows up.
 */
export async function storeChallenge(
  db: DbOrTx,
  input: { purpose: ChallengePurpose; challenge: string; userId: string | null; binding: ChallengeBinding; now: Date },
): Promise<void> {
  if ('sessionId' in input.binding) {
    await db.delete(passkeyChallenges).where(and(eq(passkeyChallenges.sessionId, input.binding.sessionId), eq(passkeyChallenges.purpose, input.purpose)));
  }
  await db.insert(passkeyChallenges).values({
    purpose: input.purpose,
    challenge: input.challenge,
    userId: input.userId,
    sessionId: 'sessionId' in input.binding ? input.binding.sessionId : null,
    cookieHash: 'cookieToken' in input.binding ? hashToken(input.binding.cookieToken) : null,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + PASSKEY_CHALLENGE_VALID_MS),
  });
}

/** Spends the challenge bound to `binding` for `purpose`; 400 passkey_challenge_expired when there is no live one. */
export async function consumeChallenge(db: DbOrTx, input: { purpose: ChallengePurpose; binding: ChallengeBinding | null; now: Date }): Promise<StoredChallenge> {
  if (!input.binding) throw challengeExpired();
  const bound =
    'sessionId' in input.binding ? eq(passkeyChallenges.sessionId, input.binding.sessionId) : eq(passkeyChallenges.cookieHash, hashToken(input.binding.cookieToken));
  const rows = await db
    .delete(passkeyChallenges)
    .where(and(bound, eq(passkeyChallenges.purpose, input.purpose)))
    .returning({ challenge: passkeyChallenges.challenge, userId: passkeyChallenges.userId, expiresAt: passkeyChallenges.expiresAt });
  const live = rows.find((row) => row.expiresAt.getTime() > input.now.getTime());
  if (!live) throw challengeExpired();
  return { challenge: live.challenge, userId: live.userId };
}

// ---- The cookie of a ceremony without a session -----------------------------------------------

function cookieOptions(request: FastifyRequest) {
  // Only the passkey endpoints read it; Strict: a cross-site page cannot make the browser send it.
  return { path: '/api/auth', httpOnly: true, sameSite: 'strict' as const, secure: request.protocol === 'https' };
}

/** A new random token for this browser's ceremony, set as an HttpOnly cookie; returns the binding. */
export function bindToNewCookie(request: FastifyRequest, reply: FastifyReply): ChallengeBinding {
  const cookieToken = newToken();
  reply.setCookie(PASSKEY_CHALLENGE_COOKIE, cookieToken, { ...cookieOptions(request), maxAge: PASSKEY_CHALLENGE_VALID_MS / 1000 });
  return { cookieToken };
}

/** The binding this browser's cookie holds (null without one), and the cookie cleared: it is single use too. */
export function takeCookieBinding(request: FastifyRequest, reply: FastifyReply): ChallengeBinding | null {
  const token = request.cookies[PASSKEY_CHALLENGE_COOKIE];
  reply.clearCookie(PASSKEY_CHALLENGE_COOKIE, cookieOptions(request));
  return isWellFormedToken(token) ? { cookieToken: token } : null;
}

/** Challenges nobody answered (scheduled with the other account purges). */
export async function purgePasskeyChallenges(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now));
}
