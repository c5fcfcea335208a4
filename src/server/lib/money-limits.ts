// Per-user limits on the money endpoints (issue 19; decision 084): a stolen session, or a script,
// cannot hammer completion, cash-out, purchases or the card reveal. The figures are far above what
// a person does (a completion is a wizard of several steps; a cash-out takes a form and a
// confirmation), so that no honest user meets them, and counted like every other limit (in
// PostgreSQL when DATABASE_URL is set, else in memory; plugins/rate-limit.ts).
import type { DbOrTx } from '../db/client';
import { limitOn, type LimitRule } from '../plugins/rate-limit';

const MONEY_LIMIT_MESSAGE = 'Too many requests in a short time. Please wait a minute and try again.';

export const MONEY_RATE_LIMITS = {
  /** POST /api/combines/:id/complete */
  combineCompletion: { points: 60, durationSeconds: 60 },
  /** POST /api/cashouts */
  cashout: { points: 60, durationSeconds: 60 },
  /** POST /api/cards/:id/purchases (demo mode's simulated purchases) */
  purchase: { points: 60, durationSeconds: 60 },
  /** POST /api/cards/:id/reveal */
  cardReveal: { points: 20, durationSeconds: 60 },
} as const satisfies Record<string, LimitRule>;

export type MoneyAction = keyof typeof MONEY_RATE_LIMITS;

/** Counts one request of the user; 429 `rate_limited` with Retry-After past the limit. */
export async function limitMoney(db: DbOrTx, action: MoneyAction, userId: string): Promise<void> {
  await limitOn(db, `money:${action}`, { ...MONEY_RATE_LIMITS[action], message: MONEY_LIMIT_MESSAGE }).consume(userId);
}
