import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORD_COUNT,
  EMAIL_MESSAGES,
  emailProblem,
  isCommonPassword,
  MAX_PASSWORD_LENGTH,
  normaliseEmail,
  PASSWORD_MESSAGES,
  passwordChecks,
  passwordProblem,
} from './passwords';

describe('password rule messages (docs/rules.md#passwords)', () => {
  it('reports a missing password', () => {
    expect(passwordProblem('')).toBe('Password is required');
  });
  it('reports fewer than 8 characters', () => {
    expect(passwordProblem('Ab1cdef')).toBe('Password must be at least 8 characters');
  });
  it('reports a missing uppercase letter, lowercase letter or number', () => {
    const msg = 'Password must contain at least one uppercase letter, one lowercase letter, and one number';
    expect(passwordProblem('abcdefg1')).toBe(msg);
    expect(passwordProblem('ABCDEFG1')).toBe(msg);
    expect(passwordProblem('Abcdefgh')).toBe(msg);
  });
  it('accepts a good password', () => {
    expect(passwordProblem('Tr0ub4dor&3x')).toBeNull();
  });
  it('has the confirmation and change-password texts', () => {
    expect(PASSWORD_MESSAGES.confirmRequired).toBe('Please confirm your password');
    expect(PASSWORD_MESSAGES.mismatch).toBe('Passwords must match');
    expect(PASSWORD_MESSAGES.newDoesNotMeetRequirements).toBe('New password does not meet all requirements');
    expect(PASSWORD_MESSAGES.newMismatch).toBe('New passwords do not match');
  });
});

describe('password length: up to 128 characters, never truncated', () => {
  it('accepts 128 characters and refuses 129 rather than cutting it', () => {
    const base = 'Aa1' + 'x'.repeat(MAX_PASSWORD_LENGTH - 3);
    expect(base.length).toBe(128);
    expect(passwordProblem(base)).toBeNull();
    expect(passwordProblem(base + 'y')).toBe(PASSWORD_MESSAGES.tooLong);
  });
  it('counts characters as the user sees them', () => {
    expect(passwordProblem('Aa1😀😀😀😀')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('Aa1😀😀😀😀😀')).toBeNull();
  });
  it('does not trim: spaces are part of the password', () => {
    expect(passwordProblem('  Ab1  ')).toBe('Password must be at least 8 characters');
    expect(passwordProblem(' Ab1cdef ')).toBeNull();
  });
});

describe('common passwords are refused even when they meet the rule', () => {
  it.each(['Password1', 'Passw0rd', 'Welcome1', 'Qwerty123', 'Abcd1234', 'P@ssw0rd', 'PASSWORD1', 'password123', 'Iloveyou1'])(
    '%s is common',
    (pw) => {
      expect(isCommonPassword(pw)).toBe(true);
    },
  );
  it('gives the common-password message only after the rule passes', () => {
    expect(passwordProblem('Password1')).toBe(PASSWORD_MESSAGES.tooCommon);
    expect(passwordProblem('password')).toBe('Password must contain at least one uppercase letter, one lowercase letter, and one number');
  });
  it('holds about 200 entries', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(190);
  });
  it('does not flag an uncommon password', () => {
    expect(isCommonPassword('Correct-Horse-Battery-9')).toBe(false);
  });
});

describe('live checklist', () => {
  it('lists the four checks with their state', () => {
    expect(passwordChecks('abc')).toEqual([
      { id: 'length', label: 'At least 8 characters', ok: false },
      { id: 'uppercase', label: 'One uppercase letter', ok: false },
      { id: 'lowercase', label: 'One lowercase letter', ok: true },
      { id: 'number', label: 'One number', ok: false },
    ]);
    expect(passwordChecks('Abcdefg1').every((c) => c.ok)).toBe(true);
  });
});

describe('e-mail rules (docs/rules.md#registration)', () => {
  it('has the exact texts', () => {
    expect(EMAIL_MESSAGES).toEqual({ required: 'Email is required', invalid: 'Invalid email address' });
  });
  it('requires and checks the address', () => {
    expect(emailProblem('   ')).toBe('Email is required');
    expect(emailProblem('no-at-sign')).toBe('Invalid email address');
    expect(emailProblem('a@b')).toBe('Invalid email address');
    expect(emailProblem('a b@c.de')).toBe('Invalid email address');
    expect(emailProblem(`${'a'.repeat(250)}@b.co`)).toBe('Invalid email address');
    expect(emailProblem(' User@Example.COM ')).toBeNull();
  });
  it('normalises by trimming and lower-casing', () => {
    expect(normaliseEmail('  User@Example.COM ')).toBe('user@example.com');
  });
});
