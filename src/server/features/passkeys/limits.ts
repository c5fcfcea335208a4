// Rate limits of the passkey ceremonies, kept like the other account endpoints' (auth/limits.ts,
// the same limiter): per IP for every answer checked, and per account once it is known.
import type { DbOrTx } from '../../db/client';
import { rateLimit, rateLimitKey } from '../../plugins/rate-limit';

const MINUTE_MS = 60_000;

export const PASSKEY_RATE_LIMITS = {
  /** Options asked for (each stores a challenge row). */
  options: { perIp: 30 },
  /** Answers checked (sign-in, second factor, re-authentication, adding). */
  verify: { perIp: 30, perUser: 10 },
} as const;

export async function limitPasskeyOptions(db: DbOrTx, input: { ip: string; now: Date }): Promise<void> {
  await rateLimit(db, { key: rateLimitKey('passkeyOptions:ip', input.ip), limit: PASSKEY_RATE_LIMITS.options.perIp, windowMs: MINUTE_MS, now: input.now });
}

export async function limitPasskeyVerifyByIp(db: DbOrTx, input: { ip: string; now: Date }): Promise<void> {
  await rateLimit(db, { key: rateLimitKey('passkeyVerify:ip', input.ip), limit: PASSKEY_RATE_LIMITS.verify.perIp, windowMs: MINUTE_MS, now: input.now });
}

export async function limitPasskeyVerifyByUser(db: DbOrTx, input: { userId: string; now: Date }): Promise<void> {
  await rateLimit(db, { key: rateLimitKey('passkeyVerify:user', input.userId), limit: PASSKEY_RATE_LIMITS.verify.perUser, windowMs: MINUTE_MS, now: input.now });
}
