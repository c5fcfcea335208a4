// The completion as one guarded statement, without an explicit transaction (decision 151), the
// way the cash-out is done (decision 018). Under contention or in a rarer case it steps aside for
// the locked transaction (complete-combine.ts), which decides with the same rules from the same rows.
//
// 1. One read, outside any transaction: the user, the combine, its sources, the cards used as
//    sources (completion-rows.ts), the Idempotency-Key, and the versions (xmin) of the user's row
//    and the combine's. A key in use is answered here: its stored answer, or the locked
//    transaction when it is in flight or expired.
// 2. The core decides on those rows (core/plan-completion.ts), as in the transaction.
// 3. One statement writes the plan (completion-write.ts, guarded): it locks the user and then the
//    combine, and writes everything, the key with its answer included, only if both rows are still
//    the versions read and the key is unused. Any change between the read and the write (a draft
//    edit, another completion, a plan change) changes a version, so the statement writes nothing
//    and the next attempt reads again. Every draft edit updates the combine's row in the same
//    transaction as its sources (draft-service.ts), so the combine's version covers its sources.
//
// What it leaves to the locked transaction: every refusal (decided there under locks, with the
// same messages), a launch-promo spot to claim (a shared counter), cards used as sources (their
// conditional debits), BNPL rebates and any hook with work to do (they run in the transaction).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { planCompletion } from '../../../core/plan-completion';
import type { IssuedCard } from '../../adapters/card-processor';
import { namedStatement } from '../../db/named-statement';
import { combineSources, combines, idempotencyKeys, users } from '../../db/schema';
import type { MoneyEffect } from '../../effects/money-effects';
import { keyFoundOutside, type StoredResponse } from '../../lib/idempotency';
import { isUniqueViolationOf, pgCode } from '../../lib/transaction';
import { afterCompletionHooks } from './completion-hooks';
import {
  cardOfSource,
  completionAnswer,
  completionFacts,
  completionRowsOf,
  completionSelection,
  planRows,
  sourceCards,
  sourceOfCombine,
  theUsersCombine,
  type CompleteInput,
} from './completion-rows';
import { writeCompletionGuarded } from './completion-write';

const IDEMPOTENCY_PRIMARY_KEY = 'idempotency_keys_user_id_key_pk';
const DEADLOCK = '40P01';

const readStatement = namedStatement('completion_read', (db) =>
  db
    .select({
      ...completionSelection,
      userXmin: sql<string>`${users}.xmin::text`,
      combineXmin: sql<string>`${combines}.xmin::text`,
      key: {
        fingerprint: idempotencyKeys.fingerprint,
        status: idempotencyKeys.responseStatus,
        body: idempotencyKeys.responseBody,
        expired: sql<boolean>`${idempotencyKeys.createdAt} < ${sql.placeholder('expiredBefore')}::timestamptz`,
      },
    })
    .from(users)
    .innerJoin(combines, eq(combines.userId, users.id))
    .leftJoin(combineSources, sourceOfCombine)
    .leftJoin(sourceCards, cardOfSource)
    .leftJoin(idempotencyKeys, and(eq(idempotencyKeys.userId, users.id), eq(idempotencyKeys.key, sql.placeholder('key'))))
    .where(theUsersCombine)
    .orderBy(asc(combineSources.position)),
);

export type OneStatementOutcome =
  /** `captures`: the effects the statement wrote, claimed by it, for `app.effects.carryOut` (decision 140). */
  | { kind: 'answered'; result: StoredResponse & { replayed: boolean }; captures: MoneyEffect[] }
  /** Something changed between the read and the write (nothing was written): try again. */
  | { kind: 'changed' }
  /** A case for the locked transaction. */
  | { kind: 'use-transaction' };

type Request = {
  userId: string;
  combineId: string;
  input: CompleteInput;
  key: string;
  fingerprint: string;
  issued: IssuedCard;
  now: Date;
  expiredBefore: Date;
};

/**
 * A test seam: runs after the read and the plan and before the statement, so a test can change
 * the world at exactly that moment (complete-in-one-statement.test.ts). Null outside those tests.
 */
export const completionSeam: { beforeStatement: (() => Promise<void>) | null } = { beforeStatement: null };

export async function completeInOneStatement(app: FastifyInstance, request: Request): Promise<OneStatementOutcome> {
  const { userId, combineId, input, key, fingerprint, issued, now } = request;
  const joined = await readStatement(app.db, { userId, combineId, key, expiredBefore: request.expiredBefore.toISOString() });
  const loaded = completionRowsOf(joined);
  // No such combine of the user's: the locked transaction says so.
  if (!loaded) return { kind: 'use-transaction' };
  const first = joined[0]!;
  const found = keyFoundOutside(first.key, fingerprint);
  if (found === 'use-transaction') return { kind: 'use-transaction' };
  if (found) return { kind: 'answered', result: found, captures: [] };

  const facts = await completionFacts(app.db, loaded, { userId, now, input, issued });
  const decided = planCompletion(facts);
  if (!decided.ok || decided.claimsPromoSpot || decided.debits.length > 0 || decided.rebates.length > 0) return { kind: 'use-transaction' };
  if (!afterCompletionHooks.allIdle({ userId, now, preferredPayout: loaded.user.preferredPayout })) return { kind: 'use-transaction' };

  const { write, written } = planRows(app, { userId, loaded, issued, plan: decided, facts, input });
  // The card is known and there are no rebates: building the answer reads nothing.
  const answer = await completionAnswer(app.db, written, []);
  if (completionSeam.beforeStatement) await completionSeam.beforeStatement();
  try {
    const wrote = await writeCompletionGuarded(app.db, write, {
      userXmin: first.userXmin,
      combineXmin: first.combineXmin,
      key,
      fingerprint,
      answer: { status: 201, body: answer },
    });
    if (!wrote) return { kind: 'changed' };
  } catch (error) {
    // The same key a moment earlier: that request committed first and this statement undid itself.
    // A deadlock (this statement against the locked transaction of a retry with the same key)
    // likewise left nothing written. The next attempt reads the key.
    if (isUniqueViolationOf(error, IDEMPOTENCY_PRIMARY_KEY) || pgCode(error) === DEADLOCK) return { kind: 'changed' };
    throw error;
  }
  return { kind: 'answered', result: { status: 201, body: answer, replayed: false }, captures: write.effects };
}
