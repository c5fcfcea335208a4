import { describe, expect, it } from 'vitest';
import { parseSecondFactorCode, recoveryCodeForm, totpCodeForm, twoFactorDisableForm } from './two-factor';

describe('second-factor codes as typed', () => {
  it.each([
    ['123456', { kind: 'totp', code: '123456' }],
    [' 123 456 ', { kind: 'totp', code: '123456' }],
    ['abcde-23456', { kind: 'recovery_code', code: 'ABCDE23456' }],
    ['ABCDE 23456', { kind: 'recovery_code', code: 'ABCDE23456' }],
    ['ABCDE23456', { kind: 'recovery_code', code: 'ABCDE23456' }],
    ['abcd-efgh-jklm-npqr-stuv-wxyz-2345', { kind: 'recovery_code', code: 'ABCDEFGHJKLMNPQRSTUVWXYZ2345' }],
  ])('%j is %j', (input, expected) => {
    expect(parseSecondFactorCode(input)).toEqual(expected);
  });

  it.each(['', '12345', '1234567', 'ABCDE-2345', 'ABCDE-234567', 'ABCDE-01890', '12345a', 'ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-234', 'ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-23456'])('%j is neither', (input) => {
    expect(parseSecondFactorCode(input)).toBeNull();
  });

  it('the forms say what is wrong', () => {
    const first = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;
    expect(first(totpCodeForm.safeParse({ code: '' }))).toBe('Authentication code is required');
    expect(first(totpCodeForm.safeParse({ code: '12345' }))).toBe('Enter the 6-digit code from your authenticator app');
    expect(first(totpCodeForm.safeParse({ code: 'ABCDE-23456' }))).toBe('Enter the 6-digit code from your authenticator app');
    expect(first(recoveryCodeForm.safeParse({ code: '' }))).toBe('Recovery code is required');
    expect(first(recoveryCodeForm.safeParse({ code: '123456' }))).toBe('A recovery code has 28 letters and digits in groups of 4, like ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345');
    expect(twoFactorDisableForm.safeParse({ currentPassword: 'x', code: 'abcde-23456' }).success).toBe(true);
    expect(first(twoFactorDisableForm.safeParse({ currentPassword: '', code: '123456' }))).toBe('Current password is required');
  });
});
