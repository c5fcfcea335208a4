// The application's one error type. `message` is shown to users as is, so it is always a
// sentence from the spec or written for a person; `code` is stable for clients and tests.
//
// Codes: validation_error (400), unauthorized (401), forbidden (403), csrf_failed (403),
// not_found (404), conflict (409), quote_changed (409), idempotency_mismatch (422),
// limit_reached (403), rate_limited (429), payload_too_large (413), unsupported_media_type (415),
// declined (402), live_mode_not_implemented (501), service_unavailable (503), internal_error (500).
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'validation_error', message, details);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, code = 'conflict', details?: unknown) => new AppError(409, code, message, details);

export const LIVE_MODE_NOT_IMPLEMENTED = 'Live mode not yet implemented';
export const liveModeNotImplemented = (message = LIVE_MODE_NOT_IMPLEMENTED) =>
  new AppError(501, 'live_mode_not_implemented', message);
