// When a webhook is sent again, what counts as delivered, and when an endpoint is given up on.
// A receiver that is down for a deploy or an outage gets the message once it is back, while one
// that is gone for good stops costing a sender's attempt (and its 15 s wait) on every event.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** An attempt that has no answer's status line this long after it started has failed. */
export const WEBHOOK_TIMEOUT_MS = 15 * SECOND_MS;

/**
 * The wait before each attempt, counted from the end of the one before (the first from the
 * message's creation): 8 attempts over about 27.5 hours. Waits grow so that a receiver still
 * recovering is not buried under retries.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  0,
  5 * SECOND_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  10 * HOUR_MS,
]);

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length;

/** An endpoint with no success since a failure this long ago is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILING_MS = 5 * DAY_MS;

/**
 * After rotating a secret, messages are signed with the old one too for this long, so a receiver
 * can switch to the new secret without dropping a message.
 */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * HOUR_MS;

/**
 * When attempt `attemptsMade + 1` is due; null once all attempts are spent. With no attempt made,
 * `lastAttemptAt` is the message's creation and the answer is that moment.
 */
export function nextAttemptAt(attemptsMade: number, lastAttemptAt: Date): Date | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) throw new RangeError(`attemptsMade must be a whole number >= 0, got ${attemptsMade}`);
  const delay = WEBHOOK_RETRY_DELAYS_MS[attemptsMade];
  return delay === undefined ? null : new Date(lastAttemptAt.getTime() + delay);
}

/**
 * Only a 2xx is a delivery. A 3xx is a failure: following it would send the signed message
 * somewhere its owner did not register (and past the address check). `null` is no answer at all:
 * a timeout or a connection that failed.
 */
export function isDeliveredStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

export type EndpointVerdict =
  | { kind: 'healthy'; firstFailureAt: null }
  | { kind: 'failing'; firstFailureAt: Date }
  | { kind: 'disable'; reason: 'gone' | 'failing_too_long'; firstFailureAt: Date };

/**
 * What one attempt's outcome means for its endpoint. `firstFailureAt` is the first failure since
 * the endpoint's last success (null when it has not failed since); the verdict carries the value
 * to store next. A 410 Gone is the receiver asking for no more webhooks, so it disables at once.
 */
export function endpointVerdict(input: { status: number | null; firstFailureAt: Date | null; now: Date }): EndpointVerdict {
  const { status, now } = input;
  if (isDeliveredStatus(status)) return { kind: 'healthy', firstFailureAt: null };
  if (status === 410) return { kind: 'disable', reason: 'gone', firstFailureAt: input.firstFailureAt ?? now };
  const firstFailureAt = input.firstFailureAt ?? now;
  if (now.getTime() - firstFailureAt.getTime() >= WEBHOOK_DISABLE_AFTER_FAILING_MS) {
    return { kind: 'disable', reason: 'failing_too_long', firstFailureAt };
  }
  return { kind: 'failing', firstFailureAt };
}

/**
 * The secrets to sign with at `now`: the current one, and the previous one while the overlap after
 * its rotation lasts. The current secret comes first.
 */
export function signingSecrets(input: { current: string; previous: string | null; rotatedAt: Date | null; now: Date }): string[] {
  const { current, previous, rotatedAt, now } = input;
  if (previous === null || rotatedAt === null) return [current];
  return now.getTime() - rotatedAt.getTime() < WEBHOOK_SECRET_OVERLAP_MS ? [current, previous] : [current];
}
