import { describe, expect, it } from 'vitest';
import { canRemovePasskey, signInMethodCount } from './sign-in-methods';

describe('the last sign-in method (decision 091)', () => {
  it('an account with a password may remove every passkey, one at a time', () => {
    expect(canRemovePasskey({ hasPassword: true, passkeyCount: 1 })).toBe(true);
    expect(canRemovePasskey({ hasPassword: true, passkeyCount: 3 })).toBe(true);
  });

  it('an account without a password keeps its last passkey', () => {
    expect(canRemovePasskey({ hasPassword: false, passkeyCount: 1 })).toBe(false);
    expect(canRemovePasskey({ hasPassword: false, passkeyCount: 2 })).toBe(true);
  });

  it('there is nothing to remove without a passkey', () => {
    expect(canRemovePasskey({ hasPassword: true, passkeyCount: 0 })).toBe(false);
  });

  it('counts the password and each passkey, and refuses a nonsensical count', () => {
    expect(signInMethodCount({ hasPassword: true, passkeyCount: 2 })).toBe(3);
    expect(signInMethodCount({ hasPassword: false, passkeyCount: 0 })).toBe(0);
    expect(() => signInMethodCount({ hasPassword: true, passkeyCount: -1 })).toThrow(RangeError);
  });
});
