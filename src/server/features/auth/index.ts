// The auth feature's public face (docs/architecture.md, "Boundaries"): what other features may use.
// Accounts settings (features/me) build on these; auth itself imports no other feature.
export { checkCurrentPassword } from './check-password';
export { accountClosedEmail, emailChangedEmail, passwordChangedEmail, twoFactorChangedEmail } from './emails';
export { loadProfile, toProfile } from './get-profile';
export { limitPasswordChecks, limitTwoFactorByIp, limitTwoFactorFailures } from './limits';
export { recordWrongSecondFactor, twoFactorLocked } from './two-factor-lock';
export { revokeResetTokens } from './password-reset';
export {
  consumeSecondFactor,
  decryptTotpSecret,
  encryptTotpSecret,
  hashNewRecoveryCodes,
  invalidCode,
  matchSecondFactor,
  remainingRecoveryCodes,
  storeRecoveryCodes,
  totpKey,
} from './two-factor';
