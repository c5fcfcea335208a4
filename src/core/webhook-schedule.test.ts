import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_DISABLE_AFTER_FAILING_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_TIMEOUT_MS,
  endpointVerdict,
  isDeliveredStatus,
  nextAttemptAt,
  signingSecrets,
} from './webhook-schedule';

const created = new Date('2026-12-01T09:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('webhook retry schedule', () => {
  it('attempts at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: 8 attempts', () => {
    const times: string[] = [];
    let last = created;
    for (let made = 0; ; made++) {
      const next = nextAttemptAt(made, last);
      if (next === null) break;
      times.push(next.toISOString());
      // Each wait counts from the attempt before; the attempt itself takes no time here.
      last = next;
    }
    expect(times).toEqual([
      '2026-12-01T09:00:00.000Z',
      '2026-12-01T09:00:05.000Z',
      '2026-12-01T09:05:05.000Z',
      '2026-12-01T09:35:05.000Z',
      '2026-12-01T11:35:05.000Z',
      '2026-12-01T16:35:05.000Z',
      '2026-12-02T02:35:05.000Z',
      '2026-12-02T12:35:05.000Z',
    ]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
  });

  it('counts a wait from the end of the last attempt, however late it ran', () => {
    const lateAttempt = new Date('2026-12-01T09:07:42.000Z');
    expect(nextAttemptAt(2, lateAttempt)?.toISOString()).toBe('2026-12-01T09:12:42.000Z');
  });

  it('has nothing after the eighth attempt', () => {
    expect(nextAttemptAt(8, created)).toBeNull();
    expect(nextAttemptAt(50, created)).toBeNull();
  });

  it('refuses a count of attempts that cannot be', () => {
    expect(() => nextAttemptAt(-1, created)).toThrow(RangeError);
    expect(() => nextAttemptAt(1.5, created)).toThrow(RangeError);
  });

  it('waits 15 s for an answer', () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(15_000);
  });
});

describe('what counts as delivered', () => {
  it('is any 2xx, and nothing else: not a redirect, not an error, not a missing answer', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(isDeliveredStatus(status)).toBe(true);
    for (const status of [100, 199, 300, 301, 302, 304, 307, 308, 400, 404, 410, 429, 500, 502, 504, null]) {
      expect(isDeliveredStatus(status)).toBe(false);
    }
  });
});

describe('endpoint verdict', () => {
  const now = new Date('2026-12-10T12:00:00.000Z');

  it('a success clears the failing streak', () => {
    expect(endpointVerdict({ status: 200, firstFailureAt: new Date(now.getTime() - 4 * DAY), now })).toEqual({ kind: 'healthy', firstFailureAt: null });
  });

  it('a first failure starts the streak now', () => {
    expect(endpointVerdict({ status: 500, firstFailureAt: null, now })).toEqual({ kind: 'failing', firstFailureAt: now });
    expect(endpointVerdict({ status: null, firstFailureAt: null, now })).toEqual({ kind: 'failing', firstFailureAt: now });
  });

  it('a 410 Gone disables the endpoint at once', () => {
    expect(endpointVerdict({ status: 410, firstFailureAt: null, now })).toEqual({ kind: 'disable', reason: 'gone', firstFailureAt: now });
  });

  it('disables an endpoint that has failed everything for 5 days, and not a moment before', () => {
    const justUnder = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_FAILING_MS + 1);
    const exactly = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_FAILING_MS);
    expect(WEBHOOK_DISABLE_AFTER_FAILING_MS).toBe(5 * DAY);
    expect(endpointVerdict({ status: 503, firstFailureAt: justUnder, now })).toEqual({ kind: 'failing', firstFailureAt: justUnder });
    expect(endpointVerdict({ status: 302, firstFailureAt: exactly, now })).toEqual({ kind: 'disable', reason: 'failing_too_long', firstFailureAt: exactly });
  });

  it('keeps the streak start through failures shorter than 5 days, and resets on any 2xx (property)', () => {
    const failure = fc.oneof(fc.constant(null), fc.integer({ min: 100, max: 599 }).filter((s) => (s < 200 || s > 299) && s !== 410));
    fc.assert(
      fc.property(failure, fc.integer({ min: 0, max: WEBHOOK_DISABLE_AFTER_FAILING_MS - 1 }), fc.integer({ min: 200, max: 299 }), (status, ago, success) => {
        const firstFailureAt = new Date(now.getTime() - ago);
        expect(endpointVerdict({ status, firstFailureAt, now })).toEqual({ kind: 'failing', firstFailureAt });
        expect(endpointVerdict({ status: success, firstFailureAt, now }).kind).toBe('healthy');
      }),
    );
  });
});

describe('signing secrets during a rotation', () => {
  const now = new Date('2026-12-10T12:00:00.000Z');

  it('signs with the new and the old secret for 24 hours after a rotation, then with the new one only', () => {
    const base = { current: 'whsec_new', previous: 'whsec_old' };
    expect(signingSecrets({ ...base, rotatedAt: new Date(now.getTime() - 24 * HOUR + 1), now })).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets({ ...base, rotatedAt: new Date(now.getTime() - 24 * HOUR), now })).toEqual(['whsec_new']);
  });

  it('signs with the one secret of an endpoint never rotated', () => {
    expect(signingSecrets({ current: 'whsec_only', previous: null, rotatedAt: null, now })).toEqual(['whsec_only']);
  });
});
