// Settings → Security → Recent security activity (decision 166): what happened to the account's
// ways in, from the audit log. The server's answer and the web panel share these schemas, and the
// panel's wording for each kind of event lives here beside the list of kinds.
import { z } from 'zod';
import { isoDateTime } from './common';

/** The audit events a user is shown, with how the panel words each one. Anything else stays internal. */
export const SECURITY_EVENT_LABELS = {
  account_created: 'Account created',
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in: wrong password or passkey',
  sign_in_second_factor_failed: 'Failed sign-in: wrong two-factor code',
  two_factor_locked: 'Two-factor codes paused after too many wrong codes',
  two_factor_unlocked: 'Two-factor codes unlocked',
  reauthentication_failed: 'Wrong password when confirming it was you',
  password_reset_requested: 'Password reset link requested',
  password_reset: 'Password reset with an e-mailed link',
  password_changed: 'Password changed',
  email_changed: 'E-mail address changed',
  two_factor_enabled: 'Two-factor sign-in turned on',
  two_factor_disabled: 'Two-factor sign-in turned off',
  recovery_codes_regenerated: 'New recovery codes made',
  recovery_code_used: 'Recovery code used',
  passkey_added: 'Passkey added',
  passkey_removed: 'Passkey removed',
  session_ended: 'Another device signed out',
  other_sessions_ended: 'All other devices signed out',
  card_revealed: 'Full card number shown',
} as const;

export type SecurityEventKind = keyof typeof SECURITY_EVENT_LABELS;
export const SECURITY_EVENT_KINDS = Object.keys(SECURITY_EVENT_LABELS) as [SecurityEventKind, ...SecurityEventKind[]];

/** The newest events shown; older ones stay in the audit log. */
export const MAX_SECURITY_EVENTS = 20;

export const securityEvent = z.object({
  kind: z.enum(SECURITY_EVENT_KINDS),
  at: isoDateTime.describe('When it happened'),
  ipAddress: z.string().nullable().describe('Where the request came from, partly masked as in the signed-in devices list ("203.0.113.x", "localhost"); null when unknown'),
});
export type SecurityEvent = z.infer<typeof securityEvent>;

export const securityActivity = z.object({ events: z.array(securityEvent).max(MAX_SECURITY_EVENTS).describe('Newest first') });
export type SecurityActivity = z.infer<typeof securityActivity>;
