// Per-user limits on the money endpoints (decision 084): a stolen session, or a script,
// cannot hammer completion, cash-out, purchases or the card reveal. The figures are far above what
// a person does (a completion is a wizard of several steps; a cash-out takes a form and a
// confirmation), so that no honest user meets them, and counted like every other limit
// (lib/rate-limit.ts).
import type { DbOrTx } from '../db/client';
import { limitOn, type LimitRule } from './rate-limit';
import { AppError } from './errors';

const moneyLimitMessage = (wait: string) => `Too many requests in a short time. Please wait ${wait} and try again.`;

export const MONEY_RATE_LIMITS = {
  /** POST /api/combines/:id/complete */
  combineCompletion: { points: 60, durationSeconds: 60 },
  /** POST /api/cashouts */
  cashout: { points: 60, durationSeconds: 60 },
  /** POST /api/cards/:id/purchases (demo mode's simulated purchases) */
  purchase: { points: 60, durationSeconds: 60 },
  /** POST /api/cards/:id/reveal */
  cardReveal: { points: 20, durationSeconds: 60 },
  /** POST /api/combines: a new draft (a wizard started); each holds up to 20 KB of form data */
  draftCreation: { points: 30, durationSeconds: 10 * 60 },
  /**
   * POST /api/combines/:id/sources and …/bnpl-card: each may pre-authorise a card and says whether
   * it was approved, which is what a card tester wants (decision 158). A person adds a few sources
   * to a draft, at most 10.
   */
  cardCheck: { points: 30, durationSeconds: 10 * 60 },
  /**
   * POST /api/payout-methods with details: each registers a destination with the payout provider
   * (decision 168), a call whose quota every user shares. A person saves at most 3 methods, and
   * again only after removing one.
   */
  payoutDestination: { points: 10, durationSeconds: 10 * 60 },
  /**
   * POST /api/cards/:id/unfreeze: every change of a card's state is told to the card processor
   * (decision 170), a call whose quota every user shares, and audited. Freezing is never limited
   * (it protects the card); unfreezes are, which bounds the toggles, and so the processor's calls,
   * one user can cause (decision 173). A person unfreezes a card a few times a day at most.
   */
  cardUnfreeze: { points: 10, durationSeconds: 10 * 60 },
  /** PUT /api/cards/:id/controls: a person edits a card's controls a few times at most; audited. */
  cardControls: { points: 30, durationSeconds: 10 * 60 },
} as const satisfies Record<string, LimitRule>;

/**
 * Declined card checks per IP (decision 158): only declines count, as wrong passwords do
 * (decision 082), so an office of honest users shares the allowance of what fails, and a tester
 * spreading checks over many accounts of one address is stopped by the declines they all produce.
 */
export const CARD_CHECK_DECLINES_PER_IP: LimitRule = { points: 20, durationSeconds: 10 * 60 };

export type MoneyAction = keyof typeof MONEY_RATE_LIMITS;

/** Counts one request of the user; 429 `rate_limited` with Retry-After past the limit. */
export async function limitMoney(db: DbOrTx, action: MoneyAction, userId: string): Promise<void> {
  await limitOn(db, `money:${action}`, { ...MONEY_RATE_LIMITS[action], message: moneyLimitMessage }).consume(userId);
}

/**
 * Runs a card check (`check`, which answers 402 when the card is declined) within its limits: the
 * user's attempts, and the declines from the caller's IP, which a decline counts.
 */
export async function limitCardCheck<T>(db: DbOrTx, who: { userId: string; ip: string }, check: () => Promise<T>): Promise<T> {
  const declines = limitOn(db, 'money:cardCheckDeclines:ip', { ...CARD_CHECK_DECLINES_PER_IP, message: moneyLimitMessage });
  await declines.check(who.ip);
  await limitMoney(db, 'cardCheck', who.userId);
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 402) await declines.count(who.ip);
    throw error;
  }
}
