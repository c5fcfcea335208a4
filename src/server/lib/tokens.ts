// Opaque secrets handed to a browser (session cookies, password-reset links): 32 random bytes
// (256 bits, docs/rules.md#security asks for at least 128) in base64url. Only their SHA-256 is stored, so
// a copy of the database does not hold a usable session or reset link.
import { hash, randomBytes } from 'node:crypto';

export const TOKEN_BYTES = 32;
/** 32 bytes in unpadded base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

// crypto.hash, the one-shot form: every signed-in request hashes its cookie, and it costs less than
// half of createHash().update().digest() (no Hash object per call).
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}
