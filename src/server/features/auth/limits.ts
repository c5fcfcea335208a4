// Rate limits of everything that checks a password, a one-time code, a recovery code or a token
// (docs/rules.md#rate-limits; decisions 082 and 083). Every such endpoint is limited per IP, counting every
// attempt; per account, only failures count, keyed by the account and the IP together, so that a
// stranger's wrong guesses use up the stranger's own allowance and never lock the owner out. On
// top of that, wrong second-factor codes have a daily cap per account (two-factor-lock.ts).
// Per-IP limits are generous because many people can share one address (an office, a carrier).
import type { DbOrTx } from '../../db/client';
import { limitOn, type LimitRule } from '../../lib/rate-limit';

const MINUTE_SECONDS = 60;
const QUARTER_HOUR_SECONDS = 15 * 60;
const DAY_SECONDS = 24 * 60 * 60;

export const AUTH_RATE_LIMITS = {
  /** Sign-in: every attempt per IP; failures per account and IP. */
  login: { perIp: 30, failuresPerAccountAndIp: 10 },
  register: { perIp: 20, perEmail: 5 },
  /** Reset e-mails: per e-mail too, so that nobody's mailbox can be flooded. */
  passwordReset: { perIp: 10, perEmail: 3 },
  /** Reset and unlock links (tokens): per IP. */
  token: { perIp: 20 },
  /** Current-password checks of a signed-in user (settings, re-authentication, new recovery codes). */
  passwordCheck: { perIp: 20, failuresPerAccountAndIp: 10 },
  /** Second-factor codes (sign-in step, enable, disable): per IP; failures per account and IP. */
  twoFactor: { perIp: 30, failuresPerAccountAndIp: 10 },
  /** Wrong second-factor codes per account in a day, wherever from: then the factor locks (decision 083). */
  twoFactorDailyFailures: 20,
} as const;

const RULES = {
  'login:ip': { points: AUTH_RATE_LIMITS.login.perIp, durationSeconds: MINUTE_SECONDS },
  'login:failures': { points: AUTH_RATE_LIMITS.login.failuresPerAccountAndIp, durationSeconds: QUARTER_HOUR_SECONDS },
  'register:ip': { points: AUTH_RATE_LIMITS.register.perIp, durationSeconds: MINUTE_SECONDS },
  'register:email': { points: AUTH_RATE_LIMITS.register.perEmail, durationSeconds: MINUTE_SECONDS },
  'passwordReset:ip': { points: AUTH_RATE_LIMITS.passwordReset.perIp, durationSeconds: MINUTE_SECONDS },
  'passwordReset:email': { points: AUTH_RATE_LIMITS.passwordReset.perEmail, durationSeconds: MINUTE_SECONDS },
  'token:ip': { points: AUTH_RATE_LIMITS.token.perIp, durationSeconds: MINUTE_SECONDS },
  'passwordCheck:ip': { points: AUTH_RATE_LIMITS.passwordCheck.perIp, durationSeconds: MINUTE_SECONDS },
  'passwordCheck:failures': { points: AUTH_RATE_LIMITS.passwordCheck.failuresPerAccountAndIp, durationSeconds: QUARTER_HOUR_SECONDS },
  'twoFactor:ip': { points: AUTH_RATE_LIMITS.twoFactor.perIp, durationSeconds: MINUTE_SECONDS },
  'twoFactor:failures': { points: AUTH_RATE_LIMITS.twoFactor.failuresPerAccountAndIp, durationSeconds: QUARTER_HOUR_SECONDS },
  'twoFactor:daily': { points: AUTH_RATE_LIMITS.twoFactorDailyFailures, durationSeconds: DAY_SECONDS },
} as const satisfies Record<string, LimitRule>;

type LimitName = keyof typeof RULES;
const limit = (db: DbOrTx, name: LimitName) => limitOn(db, name, RULES[name]);

export async function limitByIpAndEmail(db: DbOrTx, input: { action: 'register' | 'passwordReset'; ip: string; email: string }): Promise<void> {
  // Per IP first: a spraying client is stopped before it counts against an e-mail.
  await limit(db, `${input.action}:ip`).consume(input.ip);
  await limit(db, `${input.action}:email`).consume(input.email);
}

/**
 * Failures of one kind of check, per account and IP: `before` refuses (429) once they are used
 * up, counting nothing; `failed` counts one; `succeeded` forgets them.
 */
export type FailureCounter = { before(): Promise<void>; failed(): Promise<void>; succeeded(): Promise<void> };

function failures(db: DbOrTx, name: 'login:failures' | 'passwordCheck:failures' | 'twoFactor:failures', account: string, ip: string): FailureCounter {
  const counter = limit(db, name);
  return {
    before: () => counter.check(account, ip),
    failed: async () => {
      await counter.count(account, ip);
    },
    succeeded: () => counter.reset(account, ip),
  };
}

/** Sign-in: every attempt from the IP counts; the account's failures count per IP (keyed by e-mail, known or not). */
export async function limitSignIn(db: DbOrTx, input: { ip: string; email: string }): Promise<FailureCounter> {
  await limit(db, 'login:ip').consume(input.ip);
  const counter = failures(db, 'login:failures', input.email, input.ip);
  await counter.before();
  return counter;
}

/** Reset and unlock links: every attempt from the IP counts. */
export async function limitTokenChecks(db: DbOrTx, input: { ip: string }): Promise<void> {
  await limit(db, 'token:ip').consume(input.ip);
}

/** A signed-in user's current password. */
export async function limitPasswordChecks(db: DbOrTx, input: { userId: string; ip: string }): Promise<FailureCounter> {
  await limit(db, 'passwordCheck:ip').consume(input.ip);
  const counter = failures(db, 'passwordCheck:failures', input.userId, input.ip);
  await counter.before();
  return counter;
}

/** Second-factor codes from one address (the sign-in step counts this before it looks up the challenge). */
export async function limitTwoFactorByIp(db: DbOrTx, input: { ip: string }): Promise<void> {
  await limit(db, 'twoFactor:ip').consume(input.ip);
}

/** Second-factor codes against one account from one address: failures only. */
export async function limitTwoFactorFailures(db: DbOrTx, input: { userId: string; ip: string }): Promise<FailureCounter> {
  const counter = failures(db, 'twoFactor:failures', input.userId, input.ip);
  await counter.before();
  return counter;
}

/** Counts one wrong second-factor code against the account's daily cap; true once the cap is reached. */
export function countDailyTwoFactorFailure(db: DbOrTx, userId: string): Promise<boolean> {
  return limit(db, 'twoFactor:daily').count(userId);
}

/** A fresh daily allowance (the factor was unlocked by its owner). */
export function resetDailyTwoFactorFailures(db: DbOrTx, userId: string): Promise<void> {
  return limit(db, 'twoFactor:daily').reset(userId);
}

export function dailyTwoFactorFailures(db: DbOrTx, userId: string): Promise<number> {
  return limit(db, 'twoFactor:daily').used(userId);
}
