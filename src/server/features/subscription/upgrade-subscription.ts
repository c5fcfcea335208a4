// POST /api/subscription/upgrade: pay for a higher plan and switch to it, as every money operation
// does (money/run-money-operation.ts): the subscriber read under its lock → the core's decision
// (upgrade-decision.ts) → one writer (upgrade-write.ts). The payment card is checked and forgotten:
// only its brand and last 4 digits are kept (on the payment row). Demo mode simulates the charge;
// live mode answers 501 before anything happens. The Idempotency-Key is recommended, not required:
// without one the upgrade runs once as sent (nothing claimed, nothing stored), as it always has.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { detectBrand, last4, normaliseCardNumber } from '../../../core/cards';
import { paymentCardProblems, SUBSCRIPTION_MESSAGES, type UpgradeRequest, type UpgradeResponse } from '../../../contracts/subscription';
import type { Adapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { users } from '../../db/schema';
import type { EffectDrain } from '../../effects/drain';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint } from '../../lib/idempotency';
import { runMoneyOperation, type KeyValues, type MoneyRequest, type Read } from '../../money/run-money-operation';
import { loadSubscriber, type UserRow } from './subscription-view';
import { decideUpgrade } from './upgrade-decision';
import { writeUpgrade } from './upgrade-write';

export const liveUpgradeNotImplemented = () => new AppError(501, 'live_mode_not_implemented', SUBSCRIPTION_MESSAGES.liveMode);

type Deps = { db: Db; effects: EffectDrain; adapters: Pick<Adapters, 'delay'>; config: Pick<Config, 'demoMode'>; now(): Date };

export async function upgradeSubscription(deps: Deps, userId: string, input: UpgradeRequest, idempotencyKey: string | null): Promise<{ status: number; body: UpgradeResponse }> {
  const { demoMode } = deps.config;
  if (!demoMode) throw liveUpgradeNotImplemented();
  const now = deps.now();
  const problems = paymentCardProblems(input.card, { now, demoMode });
  if (problems.length > 0) throw badRequest(problems[0]!.message, problems);
  // docs/rules.md#demo-declines: a demo payment takes a moment; the wait holds no lock.
  await deps.adapters.delay('payment');
  const card = cardSummary(input.card.number);
  // The card's digits never reach the fingerprint that is stored with the key: brand and last 4 do.
  const fingerprint = () => requestFingerprint({ method: 'POST', route: '/api/subscription/upgrade', body: { plan: input.plan, billingCycle: input.billingCycle, card } });
  const request: MoneyRequest = idempotencyKey === null ? { userId, key: null, now } : { userId, key: idempotencyKey, fingerprint: fingerprint(), now };
  const paymentId = randomUUID();
  const answer = await runMoneyOperation(deps, request, {
    read: ({ tx, claim }) => readSubscriber(tx, userId, claim),
    decide: (user) => decideUpgrade({ user, request: input, card, paymentId, now, demoMode }),
    write: writeUpgrade,
  });
  return { status: answer.status, body: answer.body as UpgradeResponse };
}

function cardSummary(number: string): { brand: string | null; last4: string | null } {
  const digits = normaliseCardNumber(number);
  return { brand: detectBrand(digits), last4: /^\d{4,}$/.test(digits) ? last4(digits) : null };
}

// The subscriber, locked until the commit (NO KEY UPDATE: rows that reference the user take KEY
// SHARE), with the key's claim when the request has a key.
const claimedSubscriberStatement = namedStatement('subscription_upgrade_subscriber', (db) =>
  db
    .with(claimClause(db))
    .select({ user: users, claimed: claimedColumn() })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .for('no key update', { of: users }),
);

async function readSubscriber(tx: Tx, userId: string, claim: KeyValues<MoneyRequest>): Promise<Read<UserRow>> {
  let user: UserRow;
  if (claim === null) user = await loadSubscriber(tx, userId, { forUpdate: true });
  else {
    const [row] = await claimedSubscriberStatement(tx, { userId, ...claim });
    if (!row) throw notFound('Account not found.');
    if (row.claimed === 0) return { claimed: false };
    user = row.user;
  }
  // Closed while this request was on its way (its session was checked before the closing
  // committed): a closed account buys nothing (decision 165), and a plan bought now would renew.
  if (user.closedAt) throw unauthorized();
  return { claimed: true, facts: user };
}
