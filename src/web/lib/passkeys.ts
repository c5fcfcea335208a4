// The browser's half of the passkey ceremonies (docs/decisions/090): ask the server for options,
// let the browser and the authenticator do their part with @simplewebauthn/browser (loaded only
// when a passkey is used, so it costs the first page nothing), and hand the answer back to the
// caller to post. Failures become sentences a person understands.
import type { AuthenticationCredential, AuthenticationOptions, RegistrationCredential, RegistrationOptions } from '../../contracts/passkeys';
import { api, errorMessage } from './api';

/** A key, drawn on the Icon grid (ui/Icon.tsx `d`), for the passkey buttons. */
export const PASSKEY_ICON_PATH =
  'M2.6 17.4A2 2 0 0 0 2 18.8V21a1 1 0 0 0 1 1h3a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h1a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h.2a2 2 0 0 0 1.4-.6l.8-.8a6.5 6.5 0 1 0-4-4ZM16.5 7.5h.01';

export const PASSKEY_CANCELLED = 'The passkey request was cancelled or timed out. Please try again.';
export const PASSKEY_ALREADY_ADDED = 'This passkey is already added to your account.';
export const PASSKEY_UNSUPPORTED = 'This browser cannot use passkeys.';

/** Whether this browser can use passkeys at all (WebAuthn present). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** An error of the browser's side of a ceremony, with the sentence to show. */
export class PasskeyCeremonyError extends Error {
  override name = 'PasskeyCeremonyError';
}

function toCeremonyError(error: unknown): PasskeyCeremonyError {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return new PasskeyCeremonyError(PASSKEY_ALREADY_ADDED);
  if (name === 'NotSupportedError') return new PasskeyCeremonyError(PASSKEY_UNSUPPORTED);
  return new PasskeyCeremonyError(PASSKEY_CANCELLED);
}

/** The options from `optionsPath`, then navigator.credentials.get(): the answer to post. */
export async function answerPasskeyRequest(optionsPath: string, body?: unknown): Promise<AuthenticationCredential> {
  const optionsJSON = await api<AuthenticationOptions>(optionsPath, { method: 'POST', ...(body === undefined ? {} : { body }) });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return (await startAuthentication({ optionsJSON: optionsJSON as Parameters<typeof startAuthentication>[0]['optionsJSON'] })) as AuthenticationCredential;
  } catch (error) {
    throw toCeremonyError(error);
  }
}

/** The creation options for a new passkey, then navigator.credentials.create(): the answer to post. */
export async function createPasskey(): Promise<RegistrationCredential> {
  const optionsJSON = await api<RegistrationOptions>('/api/me/passkeys/options', { method: 'POST' });
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return (await startRegistration({ optionsJSON: optionsJSON as Parameters<typeof startRegistration>[0]['optionsJSON'] })) as RegistrationCredential;
  } catch (error) {
    throw toCeremonyError(error);
  }
}

/** The sentence for a failed passkey action: the server's, the ceremony's, or `fallback`. */
export function passkeyErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof PasskeyCeremonyError) return error.message;
  return errorMessage(error, fallback);
}
