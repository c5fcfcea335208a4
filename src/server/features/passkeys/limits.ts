// Rate limits of the passkey ceremonies, on the same limiter as the other account endpoints
// (auth/limits.ts, decision 082): every option request and every answer per IP, and answers per
// account counted with the IP (docs/rules.md#security: a stranger's attempts never use up the owner's).
import type { DbOrTx } from '../../db/client';
import { limitOn, type LimitRule } from '../../lib/rate-limit';

const MINUTE_SECONDS = 60;

export const PASSKEY_RATE_LIMITS = {
  /** Options asked for (each stores a challenge row). */
  options: { perIp: 30 },
  /** Answers checked (sign-in, second factor, re-authentication, adding). */
  verify: { perIp: 30, perAccountAndIp: 10 },
} as const;

const RULES = {
  'passkeyOptions:ip': { points: PASSKEY_RATE_LIMITS.options.perIp, durationSeconds: MINUTE_SECONDS },
  'passkeyVerify:ip': { points: PASSKEY_RATE_LIMITS.verify.perIp, durationSeconds: MINUTE_SECONDS },
  'passkeyVerify:account': { points: PASSKEY_RATE_LIMITS.verify.perAccountAndIp, durationSeconds: MINUTE_SECONDS },
} as const satisfies Record<string, LimitRule>;

type LimitName = keyof typeof RULES;
const limit = (db: DbOrTx, name: LimitName) => limitOn(db, name, RULES[name]);

export async function limitPasskeyOptions(db: DbOrTx, input: { ip: string; now?: Date }): Promise<void> {
  await limit(db, 'passkeyOptions:ip').consume(input.ip);
}

export async function limitPasskeyVerifyByIp(db: DbOrTx, input: { ip: string; now?: Date }): Promise<void> {
  await limit(db, 'passkeyVerify:ip').consume(input.ip);
}

export async function limitPasskeyVerifyByUser(db: DbOrTx, input: { userId: string; ip: string; now?: Date }): Promise<void> {
  await limit(db, 'passkeyVerify:account').consume(input.userId, input.ip);
}
