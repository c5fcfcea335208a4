// What "the last sign-in method" means (docs/decisions/091): the ways an account can be entered
// without help are its password and each of its passkeys. Two-factor codes and recovery codes are
// not among them (they only complete a sign-in), and neither is a password-reset e-mail (it needs
// a password set afterwards). Removing a passkey is refused when it would leave none.

export type SignInMethods = {
  /** Whether the account has a password (today every account does: registration sets one). */
  hasPassword: boolean;
  /** How many passkeys the account has. */
  passkeyCount: number;
};

export function signInMethodCount(methods: SignInMethods): number {
  if (!Number.isSafeInteger(methods.passkeyCount) || methods.passkeyCount < 0) throw new RangeError('passkeyCount must be a non-negative integer');
  return (methods.hasPassword ? 1 : 0) + methods.passkeyCount;
}

/** Whether one of the account's passkeys can go and leave at least one way to sign in. */
export function canRemovePasskey(methods: SignInMethods): boolean {
  if (methods.passkeyCount < 1) return false;
  return signInMethodCount(methods) - 1 >= 1;
}
