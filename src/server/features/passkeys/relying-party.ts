// Who the passkeys belong to (WebAuthn's "relying party"), derived from APP_URL: its host name is
// the RP ID a passkey is bound to, and its origin the only one whose answers are accepted. In
// demo mode that is http://localhost:<port>; browsers allow WebAuthn on localhost without https.
import type { Config } from '../../config';

export const RP_NAME = 'PayWeave';

export type RelyingParty = { id: string; name: string; origin: string };

export function relyingParty(config: Pick<Config, 'appUrl'>): RelyingParty {
  const url = new URL(config.appUrl);
  return { id: url.hostname, name: RP_NAME, origin: url.origin };
}

/** The WebAuthn user handle of an account: the 16 bytes of its id (no e-mail, nothing personal). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

/** The account id a user handle names, or null when it is not one of ours. */
export function userIdOfHandle(handle: string | undefined): string | null {
  if (!handle) return null;
  const hex = Buffer.from(handle, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
