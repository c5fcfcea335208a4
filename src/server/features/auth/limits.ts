// Rate limits of the account endpoints (DECISIONS §6: login, register and reset, per IP and per
// e-mail). Per-IP limits are generous because many people can share one address (an office, a
// mobile carrier); per-e-mail limits are tight because they protect one account from guessing.
import type { DbOrTx } from '../../db/client';
import { rateLimit, rateLimitKey } from '../../plugins/rate-limit';

const MINUTE_MS = 60_000;

export const AUTH_RATE_LIMITS = {
  login: { perIp: 30, perEmail: 10 },
  register: { perIp: 20, perEmail: 5 },
  passwordReset: { perIp: 10, perEmail: 3 },
  passwordResetConfirm: { perIp: 20 },
  /** Current-password checks of a signed-in user (settings, re-authentication). */
  passwordCheck: { perUser: 10 },
  /** Second-factor codes (sign-in step, enable, disable): like sign-in, per IP and per account. */
  twoFactor: { perIp: 30, perUser: 10 },
} as const;

export async function limitByIpAndEmail(
  db: DbOrTx,
  input: { action: 'login' | 'register' | 'passwordReset'; ip: string; email: string; now: Date },
): Promise<void> {
  const limits = AUTH_RATE_LIMITS[input.action];
  // Per IP first: a spraying client is stopped before it can lock an e-mail out for its owner.
  await rateLimit(db, { key: rateLimitKey(`${input.action}:ip`, input.ip), limit: limits.perIp, windowMs: MINUTE_MS, now: input.now });
  await rateLimit(db, { key: rateLimitKey(`${input.action}:email`, input.email), limit: limits.perEmail, windowMs: MINUTE_MS, now: input.now });
}

export async function limitResetConfirm(db: DbOrTx, input: { ip: string; now: Date }): Promise<void> {
  await rateLimit(db, {
    key: rateLimitKey('passwordResetConfirm:ip', input.ip),
    limit: AUTH_RATE_LIMITS.passwordResetConfirm.perIp,
    windowMs: MINUTE_MS,
    now: input.now,
  });
}

export async function limitPasswordChecks(db: DbOrTx, input: { userId: string; now: Date }): Promise<void> {
  await rateLimit(db, {
    key: rateLimitKey('passwordCheck:user', input.userId),
    limit: AUTH_RATE_LIMITS.passwordCheck.perUser,
    windowMs: MINUTE_MS,
    now: input.now,
  });
}

/** Second-factor codes from one address (the sign-in step, before the challenge is looked up). */
export async function limitTwoFactorByIp(db: DbOrTx, input: { ip: string; now: Date }): Promise<void> {
  await rateLimit(db, { key: rateLimitKey('twoFactor:ip', input.ip), limit: AUTH_RATE_LIMITS.twoFactor.perIp, windowMs: MINUTE_MS, now: input.now });
}

/** Second-factor codes tried against one account, wherever they come from. */
export async function limitTwoFactorByUser(db: DbOrTx, input: { userId: string; now: Date }): Promise<void> {
  await rateLimit(db, { key: rateLimitKey('twoFactor:user', input.userId), limit: AUTH_RATE_LIMITS.twoFactor.perUser, windowMs: MINUTE_MS, now: input.now });
}
