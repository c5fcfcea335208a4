// The second factor itself (docs/decisions/014): the TOTP secret at rest, recovery codes, and
// checking a code. Used by the sign-in step (two-factor-sign-in.ts) and by Settings → Security
// (features/me/two-factor-settings.ts). Secrets and codes are never logged or audited.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { LEGACY_RECOVERY_CODE_LENGTH, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH, TWO_FACTOR_MESSAGES, parseSecondFactorCode } from '../../../contracts/two-factor';
import type { DbOrTx } from '../../db/client';
import { recoveryCodes, users } from '../../db/schema';
import { decryptCardSecret, encryptCardSecret } from '../../lib/card-crypto';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
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
// 28 characters of base32 (140 random bits), stored as HMAC-SHA-256 under a key derived from the
// TOTP key (itself from CARD_DATA_KEY): a secret that random needs no slow hash, so making and
// checking codes costs no argon2id (docs/rules.md#hashing-pool, decision 081). The key keeps a stolen copy of
// the table from being checked offline without the configuration too.
const recoveryKeyCache = new WeakMap<Buffer, Buffer>();
function recoveryCodeKey(totpKeyBytes: Buffer): Buffer {
  let key = recoveryKeyCache.get(totpKeyBytes);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', totpKeyBytes, Buffer.alloc(0), 'payweave/recovery-code/v1', 32));
    recoveryKeyCache.set(totpKeyBytes, key);
  }
  return key;
}

/** The stored form of a code (compact, upper case, as `parseSecondFactorCode` gives it). */
export function hashRecoveryCode(key: Buffer, compactCode: string): string {
  return createHmac('sha256', recoveryCodeKey(key)).update(compactCode, 'utf8').digest('hex');
}

/** Codes stored before decision 081 are argon2id hashes; they are accepted while they last. */
const isLegacyHash = (stored: string) => stored.startsWith('$argon2');

/** 28 characters of base32 (140 random bits) shown as ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345. */
export function newRecoveryCode(): string {
  const raw = base32Encode(randomBytes(18)).slice(0, RECOVERY_CODE_LENGTH);
  return raw.match(/.{4}/g)!.join('-');
}

/**
 * RECOVERY_CODE_COUNT new codes and their stored forms (the only time they exist in clear); the
 * caller writes them with `storeRecoveryCodes` inside its transaction.
 */
export function hashNewRecoveryCodes(key: Buffer): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((code) => hashRecoveryCode(key, code.replaceAll('-', ''))) };
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
  if (parsed.code.length === LEGACY_RECOVERY_CODE_LENGTH) {
    // A code from before decision 081: only the user's argon2id-hashed codes can match, one
    // verification each through the bounded pool, one at a time.
    for (const row of rows.filter((r) => isLegacyHash(r.codeHash))) {
      if (await verifyPassword(row.codeHash, parsed.code)) return { kind: 'recovery_code', recoveryCodeId: row.id };
    }
    return null;
  }
  const candidate = Buffer.from(hashRecoveryCode(input.key, parsed.code), 'hex');
  let found: string | null = null;
  for (const row of rows) {
    if (isLegacyHash(row.codeHash) || row.codeHash.length !== candidate.length * 2) continue;
    // Compared in constant time, and every row is compared: no early exit to time.
    if (timingSafeEqual(candidate, Buffer.from(row.codeHash, 'hex')) && found === null) found = row.id;
  }
  return found === null ? null : { kind: 'recovery_code', recoveryCodeId: found };
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
