// Password hashing (docs/rules.md#hashing-pool, OWASP ASVS 5.0 L2): argon2id with m = 19 MiB, t = 2, p = 1.
// The password is hashed exactly as typed: no trimming, no truncation (the rule caps it at 128).
// Every hash and verification goes through the bounded pool (lib/argon2-pool.ts, decision 080):
// past its queue they throw AppError 503 `service_unavailable` with Retry-After.
import { argon2Pool, type ClientGone } from './argon2-pool';
import { AppError } from './errors';

// @node-rs/argon2's `Algorithm` is a const enum, which isolated modules cannot read; 2 is Argon2id.
const ARGON2ID = 2;

export const PASSWORD_HASH_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456, // KiB = 19 MiB
  timeCost: 2,
  parallelism: 1,
} as const;

/** `client`: who asks (the request's IP), so that the pool's queue is fair between clients. */
export function hashPassword(password: string, client?: string): Promise<string> {
  return argon2Pool().hash(password, PASSWORD_HASH_OPTIONS, client);
}

/**
 * False for a wrong password and for a stored value that is not a valid hash; throws 503 when the
 * pool is full, or when `gone` says the client stopped waiting before the check started.
 */
export async function verifyPassword(passwordHash: string, password: string, client?: string, gone?: ClientGone): Promise<boolean> {
  if (!passwordHash.startsWith('$argon2')) return false;
  try {
    return await argon2Pool().verify(passwordHash, password, client, gone);
  } catch (error) {
    if (error instanceof AppError) throw error;
    return false;
  }
}

// A hash of a random password, computed once: checking against it when no account matches makes
// a sign-in for an unknown e-mail take as long as one for a known e-mail (no enumeration by timing).
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string, client?: string, gone?: ClientGone): Promise<false> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`, client);
  // A refused first hash must not be kept: the next call tries again.
  const stored = await dummyHash.catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  await verifyPassword(stored, password, client, gone);
  return false;
}
