// Time-based one-time passwords for two-factor sign-in (docs/decisions/014, 075): RFC 4226 HOTP
// and RFC 6238 TOTP with HMAC-SHA-1, 6 digits, 30-second steps — what every authenticator app
// reads from an otpauth:// URI — and the RFC 4648 base32 those apps use for the secret. The
// algorithms, base32 and the URI come from the `otpauth` library; this file keeps PayWeave's
// rules around them: the ±1 step window, a code accepted once (later than the last used step),
// every candidate compared in constant time, and forgiving base32 input.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';

export const TOTP_ISSUER = 'PayWeave';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ALGORITHM = 'SHA1';
/** Steps accepted either side of the current one (clock drift, a code typed as it changed). */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA-1 block output size RFC 4226 recommends. */
export const TOTP_SECRET_BYTES = 20;

const BASE32_CHARACTERS = /^[A-Z2-7]*$/;

function secretOf(bytes: Uint8Array): Secret {
  // A copy: the library keeps the buffer it is given.
  return new Secret({ buffer: Uint8Array.from(bytes).buffer });
}

/** Base32 of `bytes`; padded with '=' to a multiple of 8 only when asked (apps want it unpadded). */
export function base32Encode(bytes: Uint8Array, options: { padding?: boolean } = {}): string {
  const out = secretOf(bytes).base32;
  return options.padding ? out.padEnd(Math.ceil(out.length / 8) * 8, '=') : out;
}

/**
 * The bytes of a base32 string. Case, spaces, hyphens and trailing '=' are forgiven (people copy
 * secrets in groups); any other character, or leftover bits that are not zero, throws.
 */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s-]/g, '').toUpperCase().replace(/=+$/, '');
  if (!BASE32_CHARACTERS.test(clean)) throw new RangeError('not a base32 string');
  const bytes = Buffer.from(Secret.fromBase32(clean).bytes);
  // Only the canonical spelling of these bytes: a string with stray trailing bits is a typo.
  if (base32Encode(bytes) !== clean) throw new RangeError('not a base32 string');
  return bytes;
}

/** RFC 4226: the `digits`-digit code for `counter`. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError('counter must be a non-negative integer');
  return HOTP.generate({ secret: secretOf(secret), counter, digits, algorithm: TOTP_ALGORITHM });
}

/** RFC 6238: the time step that contains `at`. */
export function totpStep(at: Date | number, periodSeconds = TOTP_PERIOD_SECONDS): number {
  return TOTP.counter({ period: periodSeconds, timestamp: typeof at === 'number' ? at : at.getTime() });
}

/** The code an authenticator app shows at `at`. */
export function totp(secret: Uint8Array, at: Date | number, options: { digits?: number; periodSeconds?: number } = {}): string {
  return TOTP.generate({
    secret: secretOf(secret),
    algorithm: TOTP_ALGORITHM,
    digits: options.digits ?? TOTP_DIGITS,
    period: options.periodSeconds ?? TOTP_PERIOD_SECONDS,
    timestamp: typeof at === 'number' ? at : at.getTime(),
  });
}

/**
 * The step whose code `code` is, within ±TOTP_WINDOW steps of `at` and later than `afterStep`
 * (the last step already used: a code is accepted once), or null. Comparisons take constant time.
 * (The library's own validate stops at the first match and knows no used step, so the window is
 * walked here.)
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

/** The Key URI authenticator apps import: otpauth://totp/PayWeave:<e-mail>?issuer=PayWeave&secret=… */
export function otpauthUri(input: { secretBase32: string; account: string; issuer?: string }): string {
  return new TOTP({
    issuer: input.issuer ?? TOTP_ISSUER,
    label: input.account,
    secret: Secret.fromBase32(input.secretBase32),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}
