// Passkeys (WebAuthn; docs/decisions/090): Settings → Security lists, adds, renames and removes
// them; /login signs in with one (no e-mail, no password); the two-factor step and the card
// reveal's re-authentication accept one. The ceremony options and answers are WebAuthn's own JSON
// (what @simplewebauthn/browser hands over); the server checks them with @simplewebauthn/server.
import { z } from 'zod';
import { profile } from './me';

export const PASSKEY_MESSAGES = {
  nameRequired: 'Please give this passkey a name',
  nameTooLong: 'Passkey names can be at most 50 characters.',
  challengeExpired: 'This passkey request has expired. Please try again.',
  notRecognised: 'This passkey is not registered with PayWeave. Sign in with your email and password instead.',
  rejected: 'We could not verify your passkey. Please try again.',
  alreadyRegistered: 'This passkey is already added to your account.',
  limitReached: 'You can add up to 10 passkeys. Remove one first.',
  noPasskeys: 'You have no passkey on this account.',
  notFound: 'Passkey not found.',
  lastSignInMethod: 'This passkey is your only way to sign in, so it cannot be removed. Set a password first.',
  malformed: 'This passkey answer is incomplete. Please try again.',
} as const;

export const MAX_PASSKEYS_PER_ACCOUNT = 10;
export const MAX_PASSKEY_NAME_LENGTH = 50;

export const passkeyName = z
  .string({ error: PASSKEY_MESSAGES.nameRequired })
  .trim()
  .min(1, PASSKEY_MESSAGES.nameRequired)
  .max(MAX_PASSKEY_NAME_LENGTH, PASSKEY_MESSAGES.nameTooLong);

const base64url = (maxLength: number) =>
  z
    .string({ error: PASSKEY_MESSAGES.malformed })
    .max(maxLength, PASSKEY_MESSAGES.malformed)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, PASSKEY_MESSAGES.malformed);

// What a browser sends back. Loose objects: browsers add fields over time (WebAuthn level 3), and
// refusing one would lock those browsers out; the signature covers what matters.
const extensionResults = z.looseObject({});

/** navigator.credentials.create() as JSON (RegistrationResponseJSON). */
export const registrationCredential = z.looseObject({
  id: base64url(1_400),
  rawId: base64url(1_400),
  type: z.literal('public-key', { error: PASSKEY_MESSAGES.malformed }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
  response: z.looseObject({
    clientDataJSON: base64url(4_096),
    attestationObject: base64url(16_000),
    authenticatorData: base64url(16_000).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4_096).optional(),
  }),
});
export type RegistrationCredential = z.infer<typeof registrationCredential>;

/** navigator.credentials.get() as JSON (AuthenticationResponseJSON). */
export const authenticationCredential = z.looseObject({
  id: base64url(1_400),
  rawId: base64url(1_400),
  type: z.literal('public-key', { error: PASSKEY_MESSAGES.malformed }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
  response: z.looseObject({
    clientDataJSON: base64url(4_096),
    authenticatorData: base64url(16_000),
    // Up to ML-DSA-87's 4,627 bytes (6,170 characters): on Node 24 the server offers the
    // post-quantum ML-DSA first, and browsers' authenticators take it (docs/decisions/183-node-24-lts.md).
    signature: base64url(8_192),
    userHandle: base64url(128).optional(),
  }),
});
export type AuthenticationCredential = z.infer<typeof authenticationCredential>;

// The options are WebAuthn's PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON, passed
// to the browser as they are.
const credentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });
export const registrationOptions = z.looseObject({
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z.looseObject({}).optional(),
  attestation: z.string().optional(),
});
export const authenticationOptions = z.looseObject({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
});

// ---- Settings → Security ----------------------------------------------------------------------
export const passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced between the user's devices (a password manager, iCloud Keychain...). */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkey>;

export const passkeyList = z.object({ passkeys: z.array(passkey) });
export type PasskeyList = z.infer<typeof passkeyList>;

export const passkeyParams = z.object({ id: z.string().uuid(PASSKEY_MESSAGES.notFound) });

export const addPasskeyRequest = z.object({ name: passkeyName, credential: registrationCredential });
export const renamePasskeyRequest = z.object({ name: passkeyName });
/** The Add passkey form: only the name; the browser supplies the rest. */
export const passkeyNameForm = z.object({ name: passkeyName });
export type PasskeyNameFormValues = z.input<typeof passkeyNameForm>;

// ---- Sign-in, second factor, re-authentication ------------------------------------------------
export const passkeySignInRequest = z.object({ credential: authenticationCredential, rememberMe: z.boolean().default(false) });
export const passkeySignInResponse = profile;

const challengeId = z.string({ error: 'Your sign-in has expired. Please sign in again.' }).min(1).max(128);
export const passkeySecondFactorOptionsRequest = z.object({ challengeId });
export const passkeySecondFactorRequest = z.object({ challengeId, credential: authenticationCredential });

export const passkeyReauthenticateRequest = z.object({ credential: authenticationCredential });

export type RegistrationOptions = z.infer<typeof registrationOptions>;
export type AuthenticationOptions = z.infer<typeof authenticationOptions>;
