// Fixed-window rate limiting kept in PostgreSQL (table rate_limits), so the limit holds across
// every server instance and survives restarts. One statement per check: an upsert that starts a
// new window or counts one more attempt in the current one, and returns the count.
import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rateLimits } from '../db/schema';
import { AppError } from '../lib/errors';

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

export type RateLimitRule = {
  /** What is being counted, e.g. rateLimitKey('login:ip', request.ip). */
  key: string;
  /** Attempts allowed per window; the next one is refused. */
  limit: number;
  windowMs: number;
  now: Date;
  /** Shown to the user when refused; the generic sentence by default. */
  message?: string;
};

export type RateLimitState = { count: number; remaining: number; windowStart: Date };

// The benchmark switch (RATE_LIMIT_DISABLED, demo mode only; docs/decisions, "rate-limit switch"):
// a load generator signs in from one address far more often than any limit allows. buildApp sets
// it from the config, so it is process-wide: the last app built decides.
let disabled = false;

/** Turns `rateLimit` into a no-op (nothing counted, nothing refused) or back on. */
export function setRateLimitsDisabled(value: boolean): void {
  disabled = value;
}

export function rateLimitsDisabled(): boolean {
  return disabled;
}

/** Counts one attempt; throws AppError 429 `rate_limited` once `limit` attempts were made in the window. */
export async function rateLimit(db: DbOrTx, rule: RateLimitRule): Promise<RateLimitState> {
  if (disabled) return { count: 0, remaining: rule.limit, windowStart: rule.now };
  const state = await countAttempt(db, rule);
  if (state.count > rule.limit) throw new AppError(429, 'rate_limited', rule.message ?? RATE_LIMITED_MESSAGE);
  return state;
}

/** Counts one attempt without refusing it (for callers that decide themselves). */
export async function countAttempt(db: DbOrTx, rule: Pick<RateLimitRule, 'key' | 'windowMs' | 'now' | 'limit'>): Promise<RateLimitState> {
  if (!Number.isSafeInteger(rule.windowMs) || rule.windowMs <= 0) throw new RangeError('windowMs must be a positive integer');
  const windowStart = new Date(Math.floor(rule.now.getTime() / rule.windowMs) * rule.windowMs);
  // An instance whose clock lags behind never resets a newer window (greatest/>=).
  const [row] = await db
    .insert(rateLimits)
    .values({ key: rule.key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} >= excluded.window_start then ${rateLimits.count} + 1 else 1 end`,
        windowStart: sql`greatest(${rateLimits.windowStart}, excluded.window_start)`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  if (!row) throw new Error('rate limit upsert returned nothing');
  return { count: row.count, remaining: Math.max(0, rule.limit - row.count), windowStart: row.windowStart };
}

/**
 * A key for one scope and one identifier. The identifier (an IP, an e-mail) is hashed so the
 * table holds no personal data, and its length is bounded whatever the client sends.
 */
export function rateLimitKey(scope: string, identifier: string): string {
  return `${scope}:${createHash('sha256').update(identifier).digest('base64url').slice(0, 32)}`;
}

/** Forgets windows that ended long ago (scheduled job). */
export async function purgeRateLimits(db: DbOrTx, now: Date, olderThanMs = 24 * 60 * 60 * 1000): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - olderThanMs)));
}
