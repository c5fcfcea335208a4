// Two-factor sign-in (docs/decisions/014): TOTP from an authenticator app, with one-time
// recovery codes. The server's answers and the web forms share these schemas and messages.
import { z } from 'zod';
import { AUTH_MESSAGES, existingPasswordField } from './auth';

export const TWO_FACTOR_MESSAGES = {
  invalidCode: 'Invalid authentication code',
  codeRequired: 'Authentication code is required',
  totpFormat: 'Enter the 6-digit code from your authenticator app',
  recoveryRequired: 'Recovery code is required',
  recoveryFormat: 'A recovery code has 28 letters and digits in groups of 4, like ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345',
  challengeExpired: 'Your sign-in has expired. Please sign in again.',
  tooManyAttempts: 'Too many incorrect codes. Please sign in again.',
  alreadyEnabled: 'Two-factor authentication is already on.',
  notEnabled: 'Two-factor authentication is not on.',
  setupExpired: 'This setup has expired. Please start again.',
  locked:
    'Too many incorrect codes today, so codes from your authenticator app are paused. Use a recovery code, or the unlock link we have e-mailed to you.',
  unlocked: 'Codes from your authenticator app work again.',
  unlockLinkInvalid:
    'This unlock link is invalid or has expired. Sign in with a recovery code, or sign in again with a code from your app to get a new link.',
} as const;

export const RECOVERY_CODE_COUNT = 10;
/**
 * Recovery codes are 28 characters of the base32 alphabet (140 random bits, docs/rules.md#security asks for
 * at least 128), shown in groups of 4: ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345 (decision 081).
 */
export const RECOVERY_CODE_LENGTH = 28;
/** Codes given before decision 081: 10 characters (50 bits), ABCDE-23456; accepted while they last. */
export const LEGACY_RECOVERY_CODE_LENGTH = 10;

export type SecondFactorCode = { kind: 'totp'; code: string } | { kind: 'recovery_code'; code: string };

/**
 * What a typed second-factor code is: 6 digits (spaces allowed) are a TOTP code; 28 base32
 * characters (any case, spaces and hyphens allowed) a recovery code, or 10 for one given before
 * decision 081; anything else is neither.
 */
export function parseSecondFactorCode(input: string): SecondFactorCode | null {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (/^[A-Z2-7]+$/.test(compact) && (compact.length === RECOVERY_CODE_LENGTH || compact.length === LEGACY_RECOVERY_CODE_LENGTH)) {
    return { kind: 'recovery_code', code: compact };
  }
  return null;
}

/** A TOTP or recovery code as the API takes it; its form is judged by the server (one message). */
export const secondFactorCodeField = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .trim()
  .min(1, TWO_FACTOR_MESSAGES.codeRequired)
  .max(64, TWO_FACTOR_MESSAGES.invalidCode);

// ---- Sign-in, second step ---------------------------------------------------------------------
export const loginTwoFactorRequest = z.object({
  challengeId: z.string({ error: TWO_FACTOR_MESSAGES.challengeExpired }).min(1, TWO_FACTOR_MESSAGES.challengeExpired).max(128, TWO_FACTOR_MESSAGES.challengeExpired),
  code: secondFactorCodeField,
});
export type LoginTwoFactorRequest = z.input<typeof loginTwoFactorRequest>;

// ---- The e-mailed unlock link (decision 083) -----------------------------------------------------
export const twoFactorUnlockRequest = z.object({
  token: z.string({ error: TWO_FACTOR_MESSAGES.unlockLinkInvalid }).min(1, TWO_FACTOR_MESSAGES.unlockLinkInvalid).max(128, TWO_FACTOR_MESSAGES.unlockLinkInvalid),
});
export const twoFactorUnlockResponse = z.object({ message: z.string() });

// ---- Settings → Security ----------------------------------------------------------------------
export const twoFactorSetupResponse = z.object({
  /** Base32, unpadded: what a person types into an authenticator app. */
  secret: z.string(),
  otpauthUri: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>;

export const twoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  recoveryCodesRemaining: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>;

export const twoFactorEnableRequest = z.object({ code: secondFactorCodeField });

export const recoveryCodesResponse = z.object({
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>;

export const twoFactorDisableRequest = z.object({
  currentPassword: existingPasswordField(AUTH_MESSAGES.currentPasswordRequired),
  code: secondFactorCodeField,
});

export const regenerateRecoveryCodesRequest = z.object({
  currentPassword: existingPasswordField(AUTH_MESSAGES.currentPasswordRequired),
});

// ---- Web forms --------------------------------------------------------------------------------
/** The code field of the enable step and of the sign-in step: 6 digits from the app. */
export const totpCodeForm = z.object({
  code: z
    .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
    .trim()
    .min(1, TWO_FACTOR_MESSAGES.codeRequired)
    .refine((value) => parseSecondFactorCode(value)?.kind === 'totp', TWO_FACTOR_MESSAGES.totpFormat),
});
export type TotpCodeFormValues = z.input<typeof totpCodeForm>;

/** The sign-in step's "Use a recovery code" field. */
export const recoveryCodeForm = z.object({
  code: z
    .string({ error: TWO_FACTOR_MESSAGES.recoveryRequired })
    .trim()
    .min(1, TWO_FACTOR_MESSAGES.recoveryRequired)
    .refine((value) => parseSecondFactorCode(value)?.kind === 'recovery_code', TWO_FACTOR_MESSAGES.recoveryFormat),
});

/** Turning two-factor off: the password and a code from the app or a recovery code. */
export const twoFactorDisableForm = z.object({
  currentPassword: existingPasswordField(AUTH_MESSAGES.currentPasswordRequired),
  code: z
    .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
    .trim()
    .min(1, TWO_FACTOR_MESSAGES.codeRequired)
    .refine((value) => parseSecondFactorCode(value) !== null, TWO_FACTOR_MESSAGES.invalidCode),
});
export type TwoFactorDisableFormValues = z.input<typeof twoFactorDisableForm>;
