import { describe, expect, it } from 'vitest';
import { changePasswordForm, loginRequest, passwordResetConfirmForm, registerForm, registerRequest } from './auth';

function messages(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return result.success ? [] : result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

const strong = 'Correct-Horse-9';

describe('account form schemas say the spec’s words (docs/rules.md#messages)', () => {
  it('register form: the terms box reads without "to continue"; the API with it', () => {
    const body = { email: 'a@example.com', password: strong, confirmPassword: strong, acceptTerms: false };
    expect(messages(registerForm.safeParse(body))).toEqual(['acceptTerms: You must accept the Terms of Service']);
    expect(messages(registerRequest.safeParse(body))).toEqual(['acceptTerms: You must accept the Terms of Service to continue']);
  });

  it('register form: "Passwords must match" shows even before the terms are ticked', () => {
    const result = registerForm.safeParse({ email: 'a@example.com', password: strong, confirmPassword: 'other', acceptTerms: false });
    expect(messages(result)).toEqual(['acceptTerms: You must accept the Terms of Service', 'confirmPassword: Passwords must match']);
  });

  it('register form: every field has its message when empty', () => {
    expect(messages(registerForm.safeParse({ email: '', password: '', confirmPassword: '', acceptTerms: false }))).toEqual([
      'email: Email is required',
      'password: Password is required',
      'confirmPassword: Please confirm your password',
      'acceptTerms: You must accept the Terms of Service',
    ]);
  });

  it('e-mails are trimmed and lower-cased; passwords are kept exactly as typed', () => {
    const parsed = loginRequest.parse({ email: '  Someone@Example.COM ', password: ' spaced pass ' });
    expect(parsed).toEqual({ email: 'someone@example.com', password: ' spaced pass ', rememberMe: false });
  });

  it('change-password form: rule and mismatch messages', () => {
    expect(messages(changePasswordForm.safeParse({ currentPassword: '', newPassword: '', confirmNewPassword: '' }))).toEqual([
      'currentPassword: Current password is required',
      'newPassword: New password is required',
      'confirmNewPassword: Please confirm your new password',
    ]);
    expect(messages(changePasswordForm.safeParse({ currentPassword: 'x', newPassword: 'weakpass', confirmNewPassword: 'weakpass' }))).toEqual([
      'newPassword: New password does not meet all requirements',
    ]);
    expect(messages(changePasswordForm.safeParse({ currentPassword: 'x', newPassword: strong, confirmNewPassword: `${strong}!` }))).toEqual([
      'confirmNewPassword: New passwords do not match',
    ]);
  });

  it('reset-confirm form: rule and mismatch messages', () => {
    expect(messages(passwordResetConfirmForm.safeParse({ password: 'short', confirmPassword: 'short' }))).toEqual(['password: Password must be at least 8 characters']);
    expect(messages(passwordResetConfirmForm.safeParse({ password: strong, confirmPassword: 'nope' }))).toEqual(['confirmPassword: Passwords must match']);
  });
});
