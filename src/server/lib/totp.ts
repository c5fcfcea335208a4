// Time-based one-time passwords for two-factor sign-in (docs/decisions/014): RFC 4226 HOTP and
// RFC 6238 TOTP with HMAC-SHA-1, 6 digits, 30-second steps — what every authenticator app
// reads from an otpauth:// URI — and the RFC 4648 base32 those apps use for the secret.
// Only node:crypto; pure otherwise, so the end-to-end tests compute codes with it too.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_ISSUER = 'PayWeave';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the current one (clock drift, a code typed as it changed). */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA-1 block output size RFC 4226 recommends. */
export const TOTP_SECRET_BYTES = 20;

// ---- base32 (RFC 4648 §6) ---------------------------------------------------------------------
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Base32 of `bytes`; padded with '=' to a multiple of 8 only when asked (apps want it unpadded). */
export function base32Encode(bytes: Uint8Array, options: { padding?: boolean } = {}): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  if (options.padding) while (out.length % 8 !== 0) out += '=';
  return out;
}

/**
 * The bytes of a base32 string. Case, spaces, hyphens and trailing '=' are forgiven (people copy
 * secrets in groups); any other character, or leftover bits that are not zero, throws.
 */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s-]/g, '').toUpperCase().replace(/=+$/, '');
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) throw new RangeError('not a base32 string');
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits >= 5 || buffer !== 0) throw new RangeError('not a base32 string');
  return Buffer.from(out);
}

// ---- HOTP / TOTP ------------------------------------------------------------------------------
/** RFC 4226: the `digits`-digit code for `counter` (dynamic truncation of HMAC-SHA-1). */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError('counter must be a non-negative integer');
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238: the time step that contains `at`. */
export function totpStep(at: Date | number, periodSeconds = TOTP_PERIOD_SECONDS): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  return Math.floor(ms / 1000 / periodSeconds);
}

/** The code an authenticator app shows at `at`. */
export function totp(secret: Uint8Array, at: Date | number, options: { digits?: number; periodSeconds?: number } = {}): string {
  return hotp(secret, totpStep(at, options.periodSeconds), options.digits);
}

/**
 * The step whose code `code` is, within ±TOTP_WINDOW steps of `at` and later than `afterStep`
 * (the last step already used: a code is accepted once), or null. Comparisons take constant time.
 */
export function verifyTotp(secret: Uint8Array, code: string, at: Date, options: { afterStep?: number | null; window?: number } = {}): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const window = options.window ?? TOTP_WINDOW;
  const current = totpStep(at);
  const given = Buffer.from(code);
  let found: number | null = null;
  // Every candidate is computed and compared, whichever matches, so timing says nothing.
  for (let step = current - window; step <= current + window; step += 1) {
    if (step < 0) continue;
    const matches = timingSafeEqual(Buffer.from(hotp(secret, step)), given);
    const fresh = options.afterStep === undefined || options.afterStep === null || step > options.afterStep;
    if (matches && fresh && found === null) found = step;
  }
  return found;
}

export function newTotpSecret(): Buffer {
  return randomBytes(TOTP_SECRET_BYTES);
}

/** The Key URI authenticator apps import: otpauth://totp/PayWeave:<e-mail>?secret=…&issuer=PayWeave… */
export function otpauthUri(input: { secretBase32: string; account: string; issuer?: string }): string {
  const issuer = input.issuer ?? TOTP_ISSUER;
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(input.account)}`;
  const query = new URLSearchParams({
    secret: input.secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
