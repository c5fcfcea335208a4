// What a card's spending limits leave now. Windows trail `now` (like Lithic's and Stripe Issuing's
// rolling limits, not calendar days): a purchase counts in a window of length L when now - at < L,
// so one made exactly 24 h before `now` has left the day window. A purchase stamped after `now`
// (another clock a little ahead) counts in every window: a limit may err towards declining, never
// towards letting more through.
import { MS_PER_DAY } from './dates';
import { assertNonNegativeCents, formatUsd } from './money';
import { LIMIT_FIELD, SPEND_WINDOWS, type SpendHistory, type SpendLimits, type SpendWindow } from './spend-controls';

export type TrailingWindow = Exclude<SpendWindow, 'transaction' | 'lifetime'>;

export const TRAILING_WINDOW_MS: Readonly<Record<TrailingWindow, number>> = {
  day: MS_PER_DAY,
  '30_days': 30 * MS_PER_DAY,
  year: 365 * MS_PER_DAY,
};

/** Purchases at or before this instant are outside every window: load those strictly after it. */
export function spendHistoryStart(now: Date): Date {
  assertValidDate(now, 'now');
  return new Date(now.getTime() - TRAILING_WINDOW_MS.year);
}

/** What was spent in each window that counts spending (the transaction window counts none). */
export type SpentInWindows = Record<Exclude<SpendWindow, 'transaction'>, number>;

export function spentInWindows(history: SpendHistory, now: Date): SpentInWindows {
  assertValidDate(now, 'now');
  const spent: SpentInWindows = { day: 0, '30_days': 0, year: 0, lifetime: history.lifetimeSpentCents };
  assertNonNegativeCents(spent.lifetime, 'lifetimeSpentCents');
  let loadedCents = 0;
  for (const purchase of history.purchases) {
    const { amountCents, at } = purchase;
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError(`a spent purchase must be positive cents, got ${amountCents}`);
    assertValidDate(at, 'purchase.at');
    loadedCents += amountCents;
    const age = now.getTime() - at.getTime();
    for (const window of ['day', '30_days', 'year'] as const) {
      if (age < TRAILING_WINDOW_MS[window]) spent[window] += amountCents;
    }
  }
  // The lifetime total includes the loaded purchases; less than them means the two reads disagree,
  // and deciding on either would be deciding on a guess.
  if (loadedCents > spent.lifetime) throw new RangeError(`lifetimeSpentCents ${spent.lifetime} is less than the loaded purchases' ${loadedCents}`);
  return spent;
}

/**
 * Left in each configured window, null where no limit is set; never negative (a limit tightened
 * below what was already spent leaves 0). `perTransactionCents` is the per-purchase limit itself;
 * `largestPurchaseCents` is the most one purchase may be now, the least of them all.
 */
export type AvailableSpend = SpendLimits & { largestPurchaseCents: number | null };

export function availableSpend(controls: SpendLimits, history: SpendHistory, now: Date): AvailableSpend {
  const spent = spentInWindows(history, now);
  const left = (limit: number | null, spentCents: number) => (limit === null ? null : Math.max(0, limit - spentCents));
  const available: AvailableSpend = {
    perTransactionCents: controls.perTransactionCents,
    perDayCents: left(controls.perDayCents, spent.day),
    per30DaysCents: left(controls.per30DaysCents, spent['30_days']),
    perYearCents: left(controls.perYearCents, spent.year),
    lifetimeCents: left(controls.lifetimeCents, spent.lifetime),
    largestPurchaseCents: null,
  };
  for (const window of SPEND_WINDOWS) {
    const value = available[LIMIT_FIELD[window]];
    if (value !== null && (available.largestPurchaseCents === null || value < available.largestPurchaseCents)) available.largestPurchaseCents = value;
  }
  return available;
}

const LEFT_PHRASE: Readonly<Record<SpendWindow, (amount: string) => string>> = {
  transaction: (amount) => `at most ${amount} a purchase`,
  day: (amount) => `${amount} left today`,
  '30_days': (amount) => `${amount} left this 30 days`,
  year: (amount) => `${amount} left this year`,
  lifetime: (amount) => `${amount} left in total`,
};

/** "$42.10 left today, $310.00 left this 30 days, at most $50.00 a purchase"; null when no limit is set. */
export function availableSpendText(available: SpendLimits): string | null {
  // The per-purchase limit reads best last: it is not spent down, it caps each purchase.
  const order: SpendWindow[] = ['day', '30_days', 'year', 'lifetime', 'transaction'];
  const parts = order.flatMap((window) => {
    const cents = available[LIMIT_FIELD[window]];
    return cents === null ? [] : [LEFT_PHRASE[window](formatUsd(cents))];
  });
  if (parts.length === 0) return null;
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function assertValidDate(value: Date, name: string): void {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new TypeError(`${name} must be a valid Date`);
}
