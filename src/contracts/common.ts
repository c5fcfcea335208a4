import { z } from 'zod';

// The error shape and its closed list of codes live in errors.ts; re-exported for the routes.
export { errorCode, errorResponse, type ErrorCode, type ErrorResponse } from './errors';

export const cents = z.number().int().safe();
export const isoDateTime = z.string().datetime({ offset: true });
export const uuid = z.string().uuid();

// Idempotency-Key (docs/api.md): 8 to 255 visible ASCII characters, e.g. a UUID per user action.
// Required on cash-outs, purchases and completion; the messages are the server's own.
export const IDEMPOTENCY_KEY_REQUIRED_MESSAGE = 'An Idempotency-Key header is required for this request.';
export const IDEMPOTENCY_KEY_FORMAT_MESSAGE = 'The Idempotency-Key header must be 8 to 255 visible ASCII characters.';
export const idempotencyKey = z
  .string({ error: IDEMPOTENCY_KEY_REQUIRED_MESSAGE })
  .min(8, IDEMPOTENCY_KEY_FORMAT_MESSAGE)
  .max(255, IDEMPOTENCY_KEY_FORMAT_MESSAGE)
  .regex(/^[\x21-\x7e]+$/, IDEMPOTENCY_KEY_FORMAT_MESSAGE)
  .describe('A key unique to this user action (8-255 visible ASCII characters); a retry with the same key and body gets the first answer');
/** The headers of an operation that needs an Idempotency-Key (other headers pass). */
export const idempotentHeaders = z.looseObject({ 'idempotency-key': idempotencyKey });
/** The headers of an operation where an Idempotency-Key is optional but checked when sent. */
export const optionallyIdempotentHeaders = z.looseObject({ 'idempotency-key': idempotencyKey.optional() });
