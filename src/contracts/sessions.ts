// Settings → Security → Signed-in devices (docs/decisions/164): the account's live sessions, and
// ending one or all of the others. The server's answers and the web panel share these schemas.
import { z } from 'zod';
import { isoDateTime } from './common';

export const SESSION_MESSAGES = {
  notFound: 'This session was not found. It may have ended already.',
  currentSession: 'This is the device you are using now. To end this session, use Logout.',
} as const;

/** At most this many sessions are listed (the newest activity first); ending "all others" ends every one. */
export const MAX_LISTED_SESSIONS = 50;
/** The longest device label the server writes ("Samsung Internet on Android" and the like). */
export const MAX_DEVICE_LABEL_LENGTH = 40;

export const signedInSession = z.object({
  /** The session's row id: names it for DELETE, and signs nobody in (the cookie holds another, secret token). */
  id: z.string().uuid(),
  createdAt: isoDateTime.describe('When this device signed in'),
  lastSeenAt: isoDateTime.describe('The last request from this device (kept to the minute); now for the current one'),
  device: z.string().max(MAX_DEVICE_LABEL_LENGTH).describe('Browser and system read from the user agent, e.g. "Chrome on Linux"; "Unknown device" when it names none we know'),
  ipAddress: z.string().nullable().describe('The address the session signed in from, partly masked: "203.0.113.x", or the first 48 bits of an IPv6 address; "localhost" for a loopback address; null when unknown'),
  current: z.boolean().describe('The session this request came with'),
});
export type SignedInSession = z.infer<typeof signedInSession>;

export const signedInSessionList = z.object({ sessions: z.array(signedInSession).max(MAX_LISTED_SESSIONS) });
export type SignedInSessionList = z.infer<typeof signedInSessionList>;

export const sessionParams = z.object({ id: z.string().uuid(SESSION_MESSAGES.notFound) });

export const signOutOthersResponse = z.object({ ended: z.number().int().min(0).describe('How many other sessions ended') });
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponse>;
