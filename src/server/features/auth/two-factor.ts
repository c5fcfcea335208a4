// The second factor itself (docs/decisions/014): the TOTP secret at rest, recovery codes, and
// checking a code. Used by the sign-in step (two-factor-sign-in.ts) and by Settings → Security
// (features/me/two-factor-settings.ts). Secrets and codes are never logged or audited.
import { hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH, TWO_FACTOR_MESSAGES, parseSecondFactorCode } from '../../../contracts/two-factor';
import type { DbOrTx } from '../../db/client';
import { recoveryCodes, users } from '../../db/schema';
import { decryptCardSecret, encryptCardSecret } from '../../lib/card-crypto';
import { AppError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { base32Decode, base32Encode, verifyTotp } from '../../lib/totp';

// ---- The secret at rest -----------------------------------------------------------------------
// AES-256-GCM with a key derived from CARD_DATA_KEY (HKDF, its own label: one key never serves
// two purposes), the user id bound as associated data so a ciphertext moved to another account
// does not decrypt. The pending secret and the active one share the binding, so enabling moves
// the ciphertext as it is.
const keyCache = new WeakMap<Buffer, Buffer>();
export function totpKey(cardDataKey: Buffer): Buffer {
  let key = keyCache.get(cardDataKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', cardDataKey, Buffer.alloc(0), 'payweave/totp-secret/v1', 32));
    keyCache.set(cardDataKey, key);
  }
  return key;
}

const aad = (userId: string) => `totp:${userId}`;

export function encryptTotpSecret(key: Buffer, userId: string, secret: Uint8Array): string {
  return encryptCardSecret(key, base32Encode(secret), aad(userId));
}

export function decryptTotpSecret(key: Buffer, userId: string, stored: string): string {
  return decryptCardSecret(key, stored, aad(userId));
}

// ---- Recovery codes ---------------------------------------------------------------------------
/** 10 characters of base32 (50 random bits) shown as ABCDE-23456. */
export function newRecoveryCode(): string {
  const raw = base32Encode(randomBytes(7)).slice(0, RECOVERY_CODE_LENGTH);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/**
 * Replaces the user's recovery codes with RECOVERY_CODE_COUNT new ones and returns them (the only
 * time they exist in clear). Stored with argon2id, salted: 50 bits is far below what a plain hash
 * could protect (ASVS 5.0 6.5.2). Hash first, then write inside the caller's transaction.
 */
export async function hashNewRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(codes.map((code) => hashPassword(code.replace('-', ''))));
  return { codes, hashes };
}

export async function storeRecoveryCodes(tx: DbOrTx, userId: string, hashes: readonly string[], now: Date): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
}

// ---- Checking a code --------------------------------------------------------------------------
export const invalidCode = (status: 400 | 401 = 400) => new AppError(status, 'invalid_code', TWO_FACTOR_MESSAGES.invalidCode);

export type SecondFactorMatch =
  | { kind: 'totp'; step: number }
  | { kind: 'recovery_code'; recoveryCodeId: string };

/**
 * Whether `code` is the user's current TOTP code (not used before) or one of their unused
 * recovery codes. Reads only: `consumeSecondFactor` then spends it, in the transaction that acts.
 */
export async function matchSecondFactor(
  db: DbOrTx,
  input: { userId: string; code: string; key: Buffer; now: Date; secretEnc: string | null; lastStep: number | null },
): Promise<SecondFactorMatch | null> {
  const parsed = parseSecondFactorCode(input.code);
  if (!parsed) return null;
  if (parsed.kind === 'totp') {
    if (!input.secretEnc) return null;
    // The stored secret is the base32 text the user saw; HMAC needs its bytes.
    const secret = base32Decode(decryptTotpSecret(input.key, input.userId, input.secretEnc));
    const step = verifyTotp(secret, parsed.code, input.now, { afterStep: input.lastStep });
    return step === null ? null : { kind: 'totp', step };
  }
  const rows = await db
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, input.userId), isNull(recoveryCodes.usedAt)));
  // argon2 runs on the thread pool: the checks of the (at most 10) codes overlap.
  const results = await Promise.all(rows.map((row) => verifyPassword(row.codeHash, parsed.code)));
  const index = results.indexOf(true);
  return index < 0 ? null : { kind: 'recovery_code', recoveryCodeId: rows[index]!.id };
}

/**
 * Spends a matched code with a conditional write, so two concurrent requests cannot both use one
 * TOTP step or one recovery code: false when another request got there first.
 */
export async function consumeSecondFactor(tx: DbOrTx, userId: string, match: SecondFactorMatch, now: Date): Promise<boolean> {
  if (match.kind === 'totp') {
    const rows = await tx
      .update(users)
      .set({ totpLastStep: match.step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, match.step))))
      .returning({ id: users.id });
    return rows.length === 1;
  }
  const rows = await tx
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.id, match.recoveryCodeId), eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

/** Unused recovery codes left (told to the user after one is spent). */
export async function remainingRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const rows = await db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return rows.length;
}
