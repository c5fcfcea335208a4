import type { BillingCycle } from './plans';

// All calendar arithmetic is in UTC so that the server and every browser agree on month
// boundaries, whatever the local time zone.

export const MS_PER_DAY = 86_400_000;

function assertDate(value: Date, name: string): void {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new TypeError(`${name} must be a valid Date`);
  }
}

function assertInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${name} must be an integer, got ${value}`);
}

export function addDays(date: Date, days: number): Date {
  assertDate(date, 'date');
  assertInteger(days, 'days');
  return new Date(date.getTime() + days * MS_PER_DAY);
}

function daysInUtcMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * Same day-of-month and time, `months` later (or earlier). A day that does not exist in the
 * target month is clamped to its last day: Jan 31 + 1 month = Feb 28/29, never Mar 2/3,
 * so "12 months from the claim" can never end in a later month than the anniversary.
 */
export function addMonths(date: Date, months: number): Date {
  assertDate(date, 'date');
  assertInteger(months, 'months');
  const totalMonths = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(totalMonths / 12);
  const monthIndex = totalMonths - year * 12;
  const day = Math.min(date.getUTCDate(), daysInUtcMonth(year, monthIndex));
  const result = new Date(date.getTime());
  result.setUTCFullYear(year, monthIndex, day);
  return result;
}

export type HistoryRange = '7d' | '1m';

/** Earliest creation time a history filter includes: 7 days, or one calendar month, back. */
export function rangeStart(range: HistoryRange, now: Date): Date {
  return range === '7d' ? addDays(now, -7) : addMonths(now, -1);
}

export const BILLING_PERIOD_DAYS: Readonly<Record<BillingCycle, number>> = {
  monthly: 30,
  yearly: 365,
};

/** The upgrade success modal's next billing date: 30 or 365 days ahead (docs/rules.md#upgrades). */
export function nextBillingDate(now: Date, cycle: BillingCycle): Date {
  return addDays(now, BILLING_PERIOD_DAYS[cycle]);
}

/** Whole days until `end`, a started day counting as one; 0 once `end` has passed. */
export function daysUntil(end: Date, now: Date): number {
  assertDate(end, 'end');
  assertDate(now, 'now');
  const ms = end.getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / MS_PER_DAY);
}
