// The application's one error type. `message` is shown to users as is, so it is always a
// sentence from the spec or written for a person; `code` is stable for clients and tests, and
// one of the closed list in src/contracts/errors.ts (which the OpenAPI document publishes).
import type { ErrorCode } from '../../contracts/errors';
import type { Refusal } from '../../core/money-plan';

export type { ErrorCode };

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Sent as Retry-After with a 429 or 503 (seconds); 60 for a 429 without it. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'validation_error', message, details);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string, code: ErrorCode = 'forbidden') => new AppError(403, code, message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, code: ErrorCode = 'conflict', details?: unknown) => new AppError(409, code, message, details);

export const LIVE_MODE_NOT_IMPLEMENTED = 'Live mode not yet implemented';
export const liveModeNotImplemented = (message = LIVE_MODE_NOT_IMPLEMENTED) =>
  new AppError(501, 'live_mode_not_implemented', message);

/**
 * An outside system (card processor, payout provider, mail server) failed, timed out or dropped
 * its answer. Nothing of ours was written by the request that met it (docs/rules.md#outside-effects: outside calls
 * come before the transaction, or after it from the outbox), so the client may simply retry:
 * the errors plugin answers 503 with Retry-After.
 */
export class OutsideSystemError extends Error {
  constructor(
    readonly system: string,
    message: string,
  ) {
    super(message);
    this.name = 'OutsideSystemError';
  }
}

/** A core planner's refusal (core/money-plan.ts) as the error the API answers; every RefusalCode is an ErrorCode. */
export function refusalError(refusal: Refusal, details?: unknown): AppError {
  const code: ErrorCode = refusal.code;
  return new AppError(refusal.status, code, refusal.message, details);
}
