// Rate limits with a kept library, rate-limiter-flexible (decision 082). The counters live in the
// table rate_limit_counters (RateLimiterDrizzle, one atomic upsert per count), so a limit holds
// across every server instance and a restart. Past a limit the answer is 429
// `rate_limited` with Retry-After (the seconds until the window frees a point).
import { hash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isDatabaseHandle, type DbOrTx } from '../db/client';
import { rateLimitCounters } from '../db/schema';
import { AppError } from './errors';
import { setNewest } from './bounded-map';

/**
 * How long a refused client waits, in words, from the Retry-After it gets: "a minute",
 * "15 minutes", "an hour", "24 hours" (rounded up, so the client is never told too little).
 */
export function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes === 1) return 'a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'an hour' : `${hours} hours`;
}

/** The generic refusal; the wait is the one Retry-After gives (a lock-out lasts 15 minutes, not one). */
export const rateLimitedMessage = (wait: string) => `Too many attempts. Please wait ${wait} and try again.`;

export type LimitRule = {
  /** Points in a window; the attempt that would go past them is refused. */
  points: number;
  durationSeconds: number;
  /** Shown to the user when refused, given the wait in words (waitText); the generic sentence by default. */
  message?: (wait: string) => string;
};

// The benchmark switch (RATE_LIMIT_DISABLED, demo mode only; decision 013): a load generator signs
// in from one address far more often than any limit allows. buildApp sets it from the config, so
// it is process-wide: the last app built decides.
let disabled = false;

/** Turns every limit into a no-op (nothing counted, nothing refused) or back on. */
export function setRateLimitsDisabled(value: boolean): void {
  disabled = value;
}

export function rateLimitsDisabled(): boolean {
  return disabled;
}

/**
 * The identifier (an IP, an e-mail, a user id, or several joined) is hashed, so the table holds no
 * personal data, and its length is bounded whatever the client sends.
 */
export function rateLimitKey(...parts: string[]): string {
  return hash('sha256', parts.join('\u0000'), 'base64url').slice(0, 32);
}

function refusal(rule: LimitRule, msBeforeNext: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(429, 'rate_limited', (rule.message ?? rateLimitedMessage)(waitText(retryAfterSeconds)), undefined, retryAfterSeconds);
}

/** Identifiers remembered as refused, per limit, at most (the oldest are forgotten first). */
const MAX_REMEMBERED_REFUSALS = 10_000;

/** One limit (a scope such as "sign-in attempts per IP") over any number of identifiers. */
export class Limit {
  /** Until when (epoch ms) this instance refused an identifier: answered again before its body is read. */
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly rule: LimitRule,
    private readonly limiter: RateLimiterAbstract,
  ) {}

  /** Counts one attempt; throws 429 `rate_limited` when it goes past the limit. */
  async consume(...identifier: string[]): Promise<void> {
    if (disabled) return;
    try {
      await this.limiter.consume(rateLimitKey(...identifier));
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        this.rememberRefusal(identifier.join('\u0000'), error.msBeforeNext);
        throw refusal(this.rule, error.msBeforeNext);
      }
      throw error;
    }
  }

  /**
   * The 429 this instance gave the identifier, while its window lasts (decision 132): a client
   * that goes on after a refusal is refused again from memory before its body is parsed,
   * validated or looked at. Nothing is counted; an identifier never refused here gets undefined.
   */
  refusedNow(...identifier: string[]): AppError | undefined {
    if (disabled || this.refusedUntil.size === 0) return undefined;
    const key = identifier.join('\u0000');
    const until = this.refusedUntil.get(key);
    if (until === undefined) return undefined;
    const msBeforeNext = until - Date.now();
    if (msBeforeNext > 0) return refusal(this.rule, msBeforeNext);
    this.refusedUntil.delete(key);
    return undefined;
  }

  private rememberRefusal(key: string, msBeforeNext: number): void {
    setNewest(this.refusedUntil, key, Date.now() + msBeforeNext, MAX_REMEMBERED_REFUSALS);
  }

  /** Throws 429 when the limit is already used up, counting nothing (a failure counts later). */
  async check(...identifier: string[]): Promise<void> {
    if (disabled) return;
    const state = await this.limiter.get(rateLimitKey(...identifier));
    if (state && state.consumedPoints >= this.rule.points) throw refusal(this.rule, state.msBeforeNext);
  }

  /** Counts one without refusing; true when it used up the limit (reached or passed it). */
  async count(...identifier: string[]): Promise<boolean> {
    if (disabled) return false;
    try {
      const state = await this.limiter.penalty(rateLimitKey(...identifier), 1);
      return state.consumedPoints >= this.rule.points;
    } catch (error) {
      if (error instanceof RateLimiterRes) return true;
      throw error;
    }
  }

  /** Points used in the current window. */
  async used(...identifier: string[]): Promise<number> {
    const state = await this.limiter.get(rateLimitKey(...identifier));
    return state?.consumedPoints ?? 0;
  }

  /** Forgets the count (a success ends a run of failures). */
  async reset(...identifier: string[]): Promise<void> {
    if (disabled) return;
    this.refusedUntil.delete(identifier.join('\u0000'));
    await this.limiter.delete(rateLimitKey(...identifier));
  }
}

// Each database handle gets its own limits, made on first use: services keep taking the handle
// they already have.
const limitsByDb = new WeakMap<object, Map<string, Limit>>();

/** The limit `name` with `rule` on this database handle (the same object for the same name). */
export function limitOn(db: DbOrTx, name: string, rule: LimitRule): Limit {
  if (!isDatabaseHandle(db)) throw new Error('rate limits are counted on the database handle, not inside a transaction');
  let limits = limitsByDb.get(db);
  if (!limits) limitsByDb.set(db, (limits = new Map()));
  let limit = limits.get(name);
  if (!limit) {
    const options = { keyPrefix: name, points: rule.points, duration: rule.durationSeconds };
    // Expired rows are purged by the scheduler (purgeRateLimits), not by a timer per limit. Once
    // a key has used its last point, this instance refuses it from memory until its window ends
    // (the library's inMemoryBlockOnConsumed): a flood past a limit then costs no database round
    // trip per request, and the honest traffic keeps the database.
    const limiter = new RateLimiterDrizzle({
      ...options,
      storeClient: db,
      schema: rateLimitCounters,
      clearExpiredByTimeout: false,
      inMemoryBlockOnConsumed: rule.points,
    } as ConstructorParameters<typeof RateLimiterDrizzle>[0]);
    limits.set(name, (limit = new Limit(name, rule, limiter)));
  }
  return limit;
}

/** The limit `name` on this database handle if it has been used (none has refused anything otherwise). */
export function existingLimit(db: DbOrTx, name: string): Limit | undefined {
  return limitsByDb.get(db)?.get(name);
}

/** Forgets counters whose window ended long ago (scheduled job; nothing to do in memory). */
export async function purgeRateLimits(db: DbOrTx, now: Date, olderThanMs = 60 * 60 * 1000): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expire, new Date(now.getTime() - olderThanMs)));
}
