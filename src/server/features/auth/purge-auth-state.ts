// Retention of the account tables (scheduled hourly): sessions that can no longer be used,
// reset links a day after they expired, rate-limit counters an hour after their window ended,
// two-factor sign-in challenges once expired, and unlock links once used or expired (passkey
// challenges: features/passkeys, in the same scheduled job).
import { lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { passwordResetTokens } from '../../db/schema';
import { purgeRateLimits } from '../../lib/rate-limit';
import { purgeExpiredSessions } from '../../plugins/session';
import { purgeTwoFactorChallenges } from './two-factor-sign-in';
import { purgeUnlockTokens } from './two-factor-lock';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeAuthState(db: DbOrTx, now: Date): Promise<void> {
  await purgeExpiredSessions(db, now);
  await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, new Date(now.getTime() - DAY_MS)));
  await purgeRateLimits(db, now);
  await purgeTwoFactorChallenges(db, now);
  await purgeUnlockTokens(db, now);
}
