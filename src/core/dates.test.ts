import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysUntil, nextBillingDate, rangeStart } from './dates';

const iso = (d: Date) => d.toISOString();

describe('addMonths: calendar months in UTC, clamped to the month end', () => {
  it('keeps day and time', () => {
    expect(iso(addMonths(new Date('2025-01-15T10:20:30Z'), 1))).toBe('2025-02-15T10:20:30.000Z');
    expect(iso(addMonths(new Date('2025-11-15T00:00:00Z'), 3))).toBe('2026-02-15T00:00:00.000Z');
  });
  it('clamps Jan 31 + 1 month to Feb 28 / 29', () => {
    expect(iso(addMonths(new Date('2025-01-31T12:00:00Z'), 1))).toBe('2025-02-28T12:00:00.000Z');
    expect(iso(addMonths(new Date('2024-01-31T12:00:00Z'), 1))).toBe('2024-02-29T12:00:00.000Z');
  });
  it('goes backwards across a year', () => {
    expect(iso(addMonths(new Date('2025-01-10T00:00:00Z'), -1))).toBe('2024-12-10T00:00:00.000Z');
    expect(iso(addMonths(new Date('2025-03-31T00:00:00Z'), -1))).toBe('2025-02-28T00:00:00.000Z');
  });
  it('refuses invalid input', () => {
    expect(() => addMonths(new Date('nope'), 1)).toThrow(TypeError);
    expect(() => addMonths(new Date(), 1.5)).toThrow(TypeError);
  });
});

describe('history ranges', () => {
  const now = new Date('2025-03-31T09:00:00Z');
  it("'7d' is 7 days back", () => {
    expect(iso(rangeStart('7d', now))).toBe('2025-03-24T09:00:00.000Z');
  });
  it("'1m' is one calendar month back", () => {
    expect(iso(rangeStart('1m', now))).toBe('2025-02-28T09:00:00.000Z');
    expect(iso(rangeStart('1m', new Date('2025-05-15T00:00:00Z')))).toBe('2025-04-15T00:00:00.000Z');
  });
});

describe('billing and day helpers', () => {
  it('next billing date is 30 or 365 days ahead', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(iso(nextBillingDate(now, 'monthly'))).toBe('2025-01-31T00:00:00.000Z');
    expect(iso(nextBillingDate(now, 'yearly'))).toBe('2026-01-01T00:00:00.000Z');
  });
  it('addDays and daysUntil', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(iso(addDays(now, -1))).toBe('2024-12-31T00:00:00.000Z');
    expect(daysUntil(addDays(now, 3), now)).toBe(3);
    expect(daysUntil(now, now)).toBe(0);
    expect(daysUntil(new Date(now.getTime() + 1), now)).toBe(1);
  });
});
