// Every error code the API can answer, as one closed list (see errors.ts). Kept free of zod so the
// web app's entry chunk can check a code against the list without pulling zod in.
export const ERROR_CODES = [
  // The request itself (any operation)
  'validation_error', // 400: the body, query or a header breaks its schema, or an unknown field/parameter
  'bad_request', // 400: the address does not decode
  'unauthorized', // 401: a session is needed
  'csrf_failed', // 403: a state-changing request from another site
  'not_found', // 404: no such resource (of this user) or endpoint
  'method_not_allowed', // 405: the path exists, the method does not (see Allow)
  'payload_too_large', // 413
  'uri_too_long', // 414
  'unsupported_media_type', // 415: a body that is not application/json
  'rate_limited', // 429 (Retry-After)
  'internal_error', // 500: never expected; the walk of the contract test proves none
  'live_mode_not_implemented', // 501
  'service_unavailable', // 503 (Retry-After): the database or the hashing pool is busy or away
  'storage_full', // 503 (Retry-After): the database's disk is full; nothing was saved (docs/decisions/181)
  // Accounts and sessions
  'invalid_credentials', // 401
  'invalid_token', // 400: a reset link that is unknown, used or expired
  'wrong_password', // 400
  'email_taken', // 409
  'reauthentication_required', // 403: enter the password again, then retry
  'invalid_code', // 400/401: a two-factor code that does not match
  'two_factor_challenge_expired', // 401
  'two_factor_attempts_exhausted', // 401
  'two_factor_already_enabled', // 409
  'two_factor_not_enabled', // 409
  'two_factor_setup_expired', // 409
  'current_session', // 409: the session making the request cannot be ended from the device list (Logout does that)
  // Passkeys (docs/decisions/090)
  'passkey_challenge_expired', // 400: no live challenge for this answer (expired, used, or never asked)
  'passkey_not_recognised', // 401/400: no such passkey (removed, or another account's)
  'passkey_rejected', // 400/401: the answer does not verify (signature, origin, user verification)
  'passkey_already_registered', // 409
  'passkey_limit_reached', // 409
  'no_passkeys', // 409: the account has no passkey to use
  'last_sign_in_method', // 409: removing it would leave no way to sign in
  'two_factor_locked', // 401/400: codes from the app are paused after the daily cap of wrong codes (a recovery code or the e-mailed link unlocks)
  // Webhooks (docs/rules.md#webhooks)
  'webhook_endpoint_limit_reached', // 409: 5 endpoints per user
  // Money
  'forbidden', // 403
  'limit_reached', // 403: the plan's monthly limit
  'payout_method_not_allowed', // 403: not on this plan
  'payout_method_not_saved', // 403
  'payout_method_needs_details', // 409: no destination registered with the payout provider for it (decision 172): enter its details, then retry
  'declined', // 402: the processor declined
  'insufficient_funds', // 402: a source cannot cover its share
  'conflict', // 409: the same Idempotency-Key is still being processed
  'idempotency_mismatch', // 422: the same Idempotency-Key with another request
  'quote_changed', // 409: the figures moved since the review step
  'underfunded', // 409
  'already_completed', // 409
  'not_a_draft', // 409
  'draft_expired', // 409: a draft past its 7 days (decision 163): deleted soon, its holds voided
  'boost_unavailable', // 409
  'source_unavailable', // 409
  'no_balance', // 409
  'card_frozen', // 409
  'card_not_cashable', // 409
  'card_closed', // 409
  'already_added', // 409
  'not_available', // 409: that plan cannot be bought from this one
  'nothing_to_cancel', // 409
  // Closing the account (decision 165)
  'account_has_balance', // 409: a card still holds money: cash it out or spend it first
  'balance_below_cashout', // 409: only cents below the smallest cash-out, on cards that cannot spend: support pays them
  'rebates_pending', // 409: a rebate waits for a payout method
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

/** True for a code on the list; an unknown string from an older or newer server is not one. */
export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && KNOWN.has(value);
