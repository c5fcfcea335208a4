// One fetch wrapper for the whole SPA: JSON in and out, same-origin cookies, and the API's
// error shape `{error: {code, message}}` turned into an ApiError the UI can show as is.
//
// Every failure reads as a sentence a person understands: the server's own message
// when it sent one (they are written for users), otherwise one chosen by status, never "The
// server answered 500". A failure on our side also carries a short reference, the start of the
// request id the server logged, for the user to quote to support.
import type { ErrorCode } from '../../contracts/error-codes';

/** The API's codes (src/contracts/errors.ts), and the two this wrapper adds when there is no answer to read. */
export type ApiErrorCode = ErrorCode | 'network_error' | 'http_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
    /** The server's x-request-id for this request, when it answered at all. */
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Eight characters of the request id: enough to find the request in the logs. */
  get reference(): string | null {
    return this.requestId ? this.requestId.replace(/-/g, '').slice(0, 8).toUpperCase() : null;
  }

  /** A failure on our side (or between us): worth a retry, and worth quoting to support. */
  get isServerSide(): boolean {
    return this.status >= 500;
  }
}

export const NETWORK_MESSAGE = 'Cannot reach PayWeave. Check your connection and try again.';

/** What a status means to a user, when the answer carried no message of its own. */
export function statusMessage(status: number): string {
  if (status === 401) return 'Your session has ended. Please sign in again.';
  if (status === 403) return 'You are not allowed to do that.';
  if (status === 404) return 'We could not find what you asked for. It may have been deleted.';
  if (status === 409) return 'Something changed in the meantime. Please reload and try again.';
  if (status === 413) return 'That is more than we can accept in one go.';
  if (status === 429) return 'Too many attempts. Please wait a minute and try again.';
  if (status === 502 || status === 503 || status === 504) return 'PayWeave is temporarily unavailable. Please try again in a moment.';
  if (status >= 500) return 'Something went wrong on our side. Please try again.';
  return 'That request could not be completed. Please check what you entered and try again.';
}

type ApiOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
};

const REQUEST_TIMEOUT_MS = 30_000;

export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const signal = options.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
  } catch {
    throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
  }
  if (response.status === 204) return undefined as T;
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (payload as { error?: { code?: unknown; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiError(
      response.status,
      await knownCode(error?.code),
      error?.message || statusMessage(response.status),
      error?.details,
      response.headers.get('x-request-id'),
    );
  }
  return payload as T;
}

/**
 * The code when it is on the contract's list (src/contracts/error-codes.ts), else `http_error`.
 * The list is loaded with the first error, not with the page: in the entry chunk it would cost the
 * landing page's first load about 0.4 KB of its 120 KB budget.
 */
async function knownCode(code: unknown): Promise<ApiErrorCode> {
  if (typeof code !== 'string') return 'http_error';
  try {
    const { isErrorCode } = await import('../../contracts/error-codes');
    return isErrorCode(code) ? code : 'http_error';
  } catch {
    return 'http_error'; // the list could not load (the network went away): the message still shows
  }
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** " Reference: 1A2B3C4D." for failures on our side, so support can find the request. */
export function referenceSuffix(error: unknown): string {
  return error instanceof ApiError && error.isServerSide && error.reference ? ` Reference: ${error.reference}.` : '';
}

/** The sentence to show for a failure: the server's message, else `fallback`; plus the reference. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return `${error.message}${referenceSuffix(error)}`;
  return fallback;
}
