// Settings → Security → Two-factor authentication (docs/decisions/014): set up (a new secret,
// pending until a code from the app confirms it), enable (returns the recovery codes, once),
// disable (password and a code) and new recovery codes (password). Each change is audited and
// e-mailed to the account's address; secrets and codes appear in neither.
import { and, eq } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import { TWO_FACTOR_MESSAGES, parseSecondFactorCode, type TwoFactorSetup } from '../../../contracts/two-factor';
import type { Mailer } from '../../adapters/mailer';
import type { Db } from '../../db/client';
import { recoveryCodes, twoFactorChallenges, twoFactorUnlockTokens, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { conflict, unauthorized } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { base32Decode, base32Encode, newTotpSecret, otpauthUri, verifyTotp } from '../../lib/totp';
import { deleteUserSessions } from '../../plugins/session';
import {
  checkCurrentPassword,
  twoFactorChangedEmail,
  limitTwoFactorByIp,
  limitTwoFactorFailures,
  recordWrongSecondFactor,
  twoFactorLocked,
  consumeSecondFactor,
  decryptTotpSecret,
  encryptTotpSecret,
  hashNewRecoveryCodes,
  invalidCode,
  matchSecondFactor,
  remainingRecoveryCodes,
  storeRecoveryCodes,
} from '../auth';

/** Setup needs the password entered in this session within this time (sign-in or re-authentication). */
export const TWO_FACTOR_SETUP_REAUTH_WINDOW_MS = 5 * 60 * 1000;
/** A setup not confirmed with a code within this time must be started again. */
export const TWO_FACTOR_SETUP_VALID_MS = 30 * 60 * 1000;

const alreadyEnabled = () => conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'two_factor_already_enabled');
const notEnabled = () => conflict(TWO_FACTOR_MESSAGES.notEnabled, 'two_factor_not_enabled');

async function readUser(db: Db, userId: string) {
  const [user] = await db
    .select({
      email: users.email,
      enabled: users.totpEnabled,
      secretEnc: users.totpSecretEnc,
      lastStep: users.totpLastStep,
      pendingEnc: users.totpPendingSecretEnc,
      pendingAt: users.totpPendingCreatedAt,
      lockedAt: users.totpLockedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw unauthorized();
  return user;
}

export async function twoFactorStatus(db: Db, userId: string): Promise<{ enabled: boolean; recoveryCodesRemaining: number }> {
  const user = await readUser(db, userId);
  return { enabled: user.enabled, recoveryCodesRemaining: user.enabled ? await remainingRecoveryCodes(db, userId) : 0 };
}

/** A new secret, stored encrypted as pending (replacing any earlier unconfirmed one). */
export async function startTwoFactorSetup(db: Db, input: { userId: string; key: Buffer; now: Date; ip: string }): Promise<TwoFactorSetup> {
  const user = await readUser(db, input.userId);
  if (user.enabled) throw alreadyEnabled();
  const secret = newTotpSecret();
  const rows = await db
    .update(users)
    .set({ totpPendingSecretEnc: encryptTotpSecret(input.key, input.userId, secret), totpPendingCreatedAt: input.now })
    .where(and(eq(users.id, input.userId), eq(users.totpEnabled, false)))
    .returning({ id: users.id });
  if (rows.length === 0) throw alreadyEnabled();
  await audit(db, { userId: input.userId, event: 'two_factor_setup_started', ip: input.ip, at: input.now });
  const secretBase32 = base32Encode(secret);
  return { secret: secretBase32, otpauthUri: otpauthUri({ secretBase32, account: user.email }) };
}

/**
 * Confirms the pending secret with a code from the app: two-factor sign-in is on, every other
 * session ends (it may be an intruder's), and the recovery codes are returned, once.
 */
export async function enableTwoFactor(
  db: Db,
  mailer: Mailer,
  input: { userId: string; sessionId: string; code: string; key: Buffer; now: Date; ip: string; appUrl: string },
): Promise<{ recoveryCodes: string[] }> {
  await limitTwoFactorByIp(db, { ip: input.ip });
  const failures = await limitTwoFactorFailures(db, { userId: input.userId, ip: input.ip });
  const user = await readUser(db, input.userId);
  if (user.enabled) throw alreadyEnabled();
  if (!user.pendingEnc || !user.pendingAt || input.now.getTime() - user.pendingAt.getTime() > TWO_FACTOR_SETUP_VALID_MS) {
    throw conflict(TWO_FACTOR_MESSAGES.setupExpired, 'two_factor_setup_expired');
  }
  const parsed = parseSecondFactorCode(input.code);
  const secret = base32Decode(decryptTotpSecret(input.key, input.userId, user.pendingEnc));
  const step = parsed?.kind === 'totp' ? verifyTotp(secret, parsed.code, input.now) : null;
  if (step === null) {
    await failures.failed();
    await audit(db, { userId: input.userId, event: 'two_factor_enable_failed', ip: input.ip, at: input.now });
    throw invalidCode();
  }
  await failures.succeeded();
  const { codes, hashes } = hashNewRecoveryCodes(input.key);
  await inTransaction(db, async (tx) => {
    const rows = await tx
      .update(users)
      .set({
        totpSecretEnc: user.pendingEnc,
        totpEnabled: true,
        totpLastStep: step,
        totpPendingSecretEnc: null,
        totpPendingCreatedAt: null,
        lastUpdated: input.now,
      })
      // The very setup that was checked, still not enabled by a concurrent request.
      .where(and(eq(users.id, input.userId), eq(users.totpEnabled, false), eq(users.totpPendingSecretEnc, user.pendingEnc!)))
      .returning({ id: users.id });
    if (rows.length === 0) throw alreadyEnabled();
    await storeRecoveryCodes(tx, input.userId, hashes, input.now);
    const endedSessions = await deleteUserSessions(tx, input.userId, input.sessionId);
    await mailer.enqueue(twoFactorChangedEmail({ to: user.email, appUrl: input.appUrl, change: 'enabled' }), tx);
    await audit(tx, { userId: input.userId, event: 'two_factor_enabled', ip: input.ip, details: { endedSessions }, at: input.now });
  });
  return { recoveryCodes: codes };
}

/** Turns two-factor sign-in off: the current password and a code (from the app or a recovery code). */
export async function disableTwoFactor(
  db: Db,
  mailer: Mailer,
  input: { userId: string; currentPassword: string; code: string; key: Buffer; now: Date; ip: string; appUrl: string },
): Promise<void> {
  const { email } = await checkCurrentPassword(db, {
    userId: input.userId,
    password: input.currentPassword,
    now: input.now,
    ip: input.ip,
    failureEvent: 'two_factor_disable_failed',
    wrongMessage: AUTH_MESSAGES.currentPasswordWrong,
  });
  await limitTwoFactorByIp(db, { ip: input.ip });
  const failures = await limitTwoFactorFailures(db, { userId: input.userId, ip: input.ip });
  const user = await readUser(db, input.userId);
  if (!user.enabled) throw notEnabled();
  // Locked by the daily cap (decision 083): only a recovery code turns it off.
  if (user.lockedAt && parseSecondFactorCode(input.code)?.kind === 'totp') throw twoFactorLocked(400);
  const match = await matchSecondFactor(db, {
    userId: input.userId,
    code: input.code,
    key: input.key,
    now: input.now,
    secretEnc: user.secretEnc,
    lastStep: user.lastStep,
  });
  const done = match
    ? await inTransaction(db, async (tx) => {
        if (!(await consumeSecondFactor(tx, input.userId, match, input.now))) return false;
        await tx
          .update(users)
          .set({ totpSecretEnc: null, totpEnabled: false, totpLastStep: null, totpPendingSecretEnc: null, totpPendingCreatedAt: null, totpLockedAt: null, lastUpdated: input.now })
          .where(eq(users.id, input.userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, input.userId));
        await tx.delete(twoFactorUnlockTokens).where(eq(twoFactorUnlockTokens.userId, input.userId));
        await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, input.userId));
        await mailer.enqueue(twoFactorChangedEmail({ to: email, appUrl: input.appUrl, change: 'disabled' }), tx);
        await audit(tx, { userId: input.userId, event: 'two_factor_disabled', ip: input.ip, details: { secondFactor: match.kind }, at: input.now });
        return true;
      })
    : false;
  if (!done) {
    await failures.failed();
    const locked = await recordWrongSecondFactor(db, mailer, { userId: input.userId, now: input.now, ip: input.ip, appUrl: input.appUrl });
    await audit(db, { userId: input.userId, event: 'two_factor_disable_failed', ip: input.ip, details: { reason: 'wrong_code' }, at: input.now });
    throw locked ? twoFactorLocked(400) : invalidCode();
  }
  await failures.succeeded();
}

/** New recovery codes (the current password again); the old ones stop working. */
export async function regenerateRecoveryCodes(
  db: Db,
  mailer: Mailer,
  input: { userId: string; currentPassword: string; key: Buffer; now: Date; ip: string; appUrl: string },
): Promise<{ recoveryCodes: string[] }> {
  const { email } = await checkCurrentPassword(db, {
    userId: input.userId,
    password: input.currentPassword,
    now: input.now,
    ip: input.ip,
    failureEvent: 'recovery_codes_regeneration_failed',
    wrongMessage: AUTH_MESSAGES.currentPasswordWrong,
  });
  const user = await readUser(db, input.userId);
  if (!user.enabled) throw notEnabled();
  const { codes, hashes } = hashNewRecoveryCodes(input.key);
  await inTransaction(db, async (tx) => {
    // Still on (not turned off meanwhile), locked so two regenerations do not interleave.
    const [still] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.userId), eq(users.totpEnabled, true)))
      .for('no key update');
    if (!still) throw notEnabled();
    await storeRecoveryCodes(tx, input.userId, hashes, input.now);
    await mailer.enqueue(twoFactorChangedEmail({ to: email, appUrl: input.appUrl, change: 'recovery_codes' }), tx);
    await audit(tx, { userId: input.userId, event: 'recovery_codes_regenerated', ip: input.ip, at: input.now });
  });
  return { recoveryCodes: codes };
}
