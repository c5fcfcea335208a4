// Accounts API: registration, sign-in, sessions, password reset, e-mail and password
// change. The messages are the spec's rules (docs/rules.md#messages) so the server's 400 answers and the web forms say
// the same thing: the server returns the first issue's message, a form shows each field's first.
import { z } from 'zod';
import { profile } from './me';
import { EMAIL_MESSAGES, MAX_PASSWORD_LENGTH, PASSWORD_MESSAGES, emailProblem, normaliseEmail, passwordProblem } from '../core/passwords';

export { EMAIL_MESSAGES, PASSWORD_MESSAGES };

export const TERMS_MESSAGES = {
  form: 'You must accept the Terms of Service',
  api: 'You must accept the Terms of Service to continue',
} as const;

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password.',
  emailTaken: 'An account with this email already exists.',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Your current password is incorrect.',
  passwordWrong: 'That password is incorrect. Please try again.',
  newPasswordRequired: 'New password is required',
  confirmNewPasswordRequired: 'Please confirm your new password',
  resetTokenInvalid: 'This reset link is invalid or has expired. Please request a new one.',
  resetRequested: 'If an account exists for that email, we have sent a link to reset the password.',
  reauthenticationRequired: 'Please enter your password again to continue.',
  sameEmail: 'That is already your email address.',
} as const;

/** Trimmed and lower-cased on the way in (e-mails are stored that way). */
export const emailField = z
  .string({ error: EMAIL_MESSAGES.required })
  .superRefine((value, ctx) => {
    const problem = emailProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(normaliseEmail);

/**
 * A password the user is choosing (register, reset, change): the spec's register rule plus the
 * length cap and the common-password list (docs/rules.md#passwords). Taken exactly as typed: no trimming.
 */
export const newPasswordField = z.string({ error: PASSWORD_MESSAGES.required }).superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

// A password being checked against a stored hash: only "present" is validated, so a sign-in
// form never hints at the rule. The cap only stops absurd bodies from reaching argon2.
const MAX_CHECKED_PASSWORD_LENGTH = MAX_PASSWORD_LENGTH * 8;
export const existingPasswordField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .max(MAX_CHECKED_PASSWORD_LENGTH, AUTH_MESSAGES.invalidCredentials);

// ---- Sign in ----------------------------------------------------------------------------------
export const loginRequest = z.object({
  email: emailField,
  password: existingPasswordField(PASSWORD_MESSAGES.required),
  rememberMe: z.boolean().default(false),
});
export type LoginRequest = z.input<typeof loginRequest>;

/** The answer to a right password when the account has two-factor sign-in on: no session yet. */
export const loginTwoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  /** Sent back with the code to POST /api/auth/login/two-factor; valid 5 minutes, 5 attempts. */
  challengeId: z.string(),
  /** Present (true) when the account has a passkey, which can complete the step instead of a code. */
  passkeyAvailable: z.literal(true).optional(),
});
export type LoginTwoFactorChallenge = z.infer<typeof loginTwoFactorChallenge>;

/** POST /api/auth/login: the profile (signed in) or, with two-factor sign-in on, the challenge. */
export const loginResponse = z.union([profile, loginTwoFactorChallenge]);
export type LoginResponse = z.infer<typeof loginResponse>;

// ---- Register ---------------------------------------------------------------------------------
const bothStrings = (value: unknown, a: string, b: string) => {
  const record = value as Record<string, unknown> | null;
  return typeof record?.[a] === 'string' && typeof record?.[b] === 'string';
};

function registerSchema(termsMessage: string) {
  return z
    .object({
      email: emailField,
      password: newPasswordField,
      confirmPassword: z.string({ error: PASSWORD_MESSAGES.confirmRequired }).min(1, PASSWORD_MESSAGES.confirmRequired),
      acceptTerms: z.boolean({ error: termsMessage }).refine((accepted) => accepted, termsMessage),
    })
    .refine((data) => data.password === data.confirmPassword, {
      message: PASSWORD_MESSAGES.mismatch,
      path: ['confirmPassword'],
      // Checked as soon as both passwords are there, so the form can say it before the terms are ticked.
      when: (payload) => bothStrings(payload.value, 'password', 'confirmPassword'),
    });
}

/** POST /api/auth/register. */
export const registerRequest = registerSchema(TERMS_MESSAGES.api);
/** The register form: the same rules, the form's wording for the terms box (docs/rules.md#registration). */
export const registerForm = registerSchema(TERMS_MESSAGES.form);
export type RegisterFormValues = z.input<typeof registerForm>;

// ---- Password reset ---------------------------------------------------------------------------
export const passwordResetRequest = z.object({ email: emailField });
export type PasswordResetRequest = z.input<typeof passwordResetRequest>;

export const passwordResetAccepted = z.object({ message: z.string() });

/** Tokens are 32 random bytes in base64url: 43 characters. */
export const resetToken = z.string({ error: AUTH_MESSAGES.resetTokenInvalid }).min(1, AUTH_MESSAGES.resetTokenInvalid).max(128, AUTH_MESSAGES.resetTokenInvalid);

export const passwordResetConfirmRequest = z.object({ token: resetToken, password: newPasswordField });

/** The page the e-mailed link opens: new password and its confirmation. */
export const passwordResetConfirmForm = z
  .object({
    password: newPasswordField,
    confirmPassword: z.string({ error: PASSWORD_MESSAGES.confirmRequired }).min(1, PASSWORD_MESSAGES.confirmRequired),
  })
  .refine((data) => data.password === data.confirmPassword, { message: PASSWORD_MESSAGES.mismatch, path: ['confirmPassword'], when: (payload) => bothStrings(payload.value, 'password', 'confirmPassword') });
export type PasswordResetConfirmFormValues = z.input<typeof passwordResetConfirmForm>;

// ---- Re-authentication (card reveal asks for the password again) -----------------------------
export const reauthenticateRequest = z.object({ password: existingPasswordField(PASSWORD_MESSAGES.required) });

// ---- Settings: e-mail and password change ---------------------------------------------------
export const changeEmailRequest = z.object({
  email: emailField,
  currentPassword: existingPasswordField(AUTH_MESSAGES.currentPasswordRequired),
});
export type ChangeEmailRequest = z.input<typeof changeEmailRequest>;

/**
 * docs/rules.md#passwords: a new password that fails the rule reads 'New password does not meet all
 * requirements' (the live checklist says which); a too common or too long one says so.
 */
export const changedPasswordField = z.string({ error: AUTH_MESSAGES.newPasswordRequired }).superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem === null) return;
  const message =
    problem === PASSWORD_MESSAGES.required
      ? AUTH_MESSAGES.newPasswordRequired
      : problem === PASSWORD_MESSAGES.tooShort || problem === PASSWORD_MESSAGES.missingClasses
        ? PASSWORD_MESSAGES.newDoesNotMeetRequirements
        : problem;
  ctx.addIssue({ code: 'custom', message });
});

export const changePasswordRequest = z.object({
  currentPassword: existingPasswordField(AUTH_MESSAGES.currentPasswordRequired),
  newPassword: changedPasswordField,
});

export const changePasswordForm = z
  .object({
    currentPassword: existingPasswordField(AUTH_MESSAGES.currentPasswordRequired),
    newPassword: changedPasswordField,
    confirmNewPassword: z.string({ error: AUTH_MESSAGES.confirmNewPasswordRequired }).min(1, AUTH_MESSAGES.confirmNewPasswordRequired),
  })
  .refine((data) => data.newPassword === data.confirmNewPassword, {
    message: PASSWORD_MESSAGES.newMismatch,
    path: ['confirmNewPassword'],
    when: (payload) => bothStrings(payload.value, 'newPassword', 'confirmNewPassword'),
  });
export type ChangePasswordFormValues = z.input<typeof changePasswordForm>;

// ---- Demo mailbox ---------------------------------------------------------------------------
export const mailboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export const mailboxResponse = z.object({ messages: z.array(mailboxMessage) });
export type MailboxMessage = z.infer<typeof mailboxMessage>;
