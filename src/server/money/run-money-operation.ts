// The one way money moves (docs/rules.md#deciding-vs-doing): every money operation is a reader, a
// decision of the core and a writer, run by this function.
//
// 1. `read`: the facts the decision depends on, kept true until the write by the reader's guard
//    (decision 188):
//    - lock: in the operation's transaction, one statement claims the Idempotency-Key
//      (`claimClause`, lib/idempotency.ts) and locks the rows, so they cannot change until the
//      commit. A key already claimed is a retry: its stored answer is returned, nothing is decided.
//    - versions: one statement, outside any transaction, that locks and claims nothing; the writer
//      then writes only if every fact the decision used still holds, in one statement that also
//      inserts the key with its answer. If anything changed (or the key is known, or the decision
//      is a refusal, or a request with the same key got there first), nothing was written, and the
//      operation runs again with the lock guard, which decides on what is committed then.
//    An operation whose reader and writer take both guards says so (`versions: true`) and is
//    tried with versions first: two round trips instead of five when nothing contends.
// 2. `decide`: pure (the core's planner and the rows it turns into): a refusal, or the write set and
//    the answer. Nothing about the outcome is decided anywhere else, and it is the same function
//    whichever guard read the facts.
// 3. `write`: carries the write set out, the key's answer with it (`storeClause`, or with versions
//    `storeNewKeyClause`). Under the lock, a conditional write that finds it cannot happen (a debit,
//    a promo spot) throws the refusal the decision named, and the whole transaction rolls back,
//    the key's claim with it.
// 4. After the commit, the effects the write set wrote, claimed by this writer (decision 140), are
//    carried out at once; a retry or a refusal wrote none and sends none.
//
// Where the API leaves the key optional (the subscription upgrade), a request without one runs the
// same three steps once as sent, under the lock: its reader claims nothing and its writer stores
// nothing, so a retry of it is a new request.
import type { Db, DbOrTx, Tx } from '../db/client';
import type { EffectDrain } from '../effects/drain';
import type { MoneyEffect } from '../effects/money-effects';
import type { AppError } from '../lib/errors';
import { claimValues, isKeyTaken, storedAnswer, storeValues, type KeyedRequest, type StoredResponse } from '../lib/idempotency';
import { inTransaction, pgCode } from '../lib/transaction';
import { assertWriteSetHolds, type MoneyWriteSet } from '../../core/write-set';

export type { KeyedRequest };

/** A request without an Idempotency-Key, where the API leaves the key optional. */
export type UnkeyedRequest = { userId: string; key: null; now: Date };
export type MoneyRequest = KeyedRequest | UnkeyedRequest;

/**
 * For a keyed request, the values of the claim clause (given to the reader) or of the store clause
 * (given to the writer); null for an unkeyed one, whose reader claims and whose writer stores nothing.
 */
export type KeyValues<R extends MoneyRequest = KeyedRequest> = R extends KeyedRequest ? Record<string, unknown> : null;

/**
 * The decision: a refusal (nothing is written, the key is released), or what to write and answer,
 * with the core's write set (core/write-set.ts) it was made from: the pipeline asserts its rules
 * before anything is written, and that the outbox gets one row per effect the core decided.
 */
export type Decision<W> = { refusal: AppError } | { write: W; answer: StoredResponse; effects: readonly MoneyEffect[]; writeSet: MoneyWriteSet };

/**
 * How the facts are kept true until the write (see the top of this file): `lock`, in the
 * operation's transaction, with the claim clause's values (null: no key to claim); or `versions`,
 * outside any transaction, re-checked by the writer (`key`: the request's, which the reader only
 * looks up).
 */
export type ReadGuard<R extends MoneyRequest = KeyedRequest> = LockGuard<R> | VersionsGuard;
export type LockGuard<R extends MoneyRequest = KeyedRequest> = { kind: 'lock'; tx: Tx; claim: KeyValues<R> };
export type VersionsGuard = { kind: 'versions'; db: Db; key: string };

/**
 * What a writer needs besides its write set: where it writes (the lock's transaction, or the
 * database for one statement of its own with versions), the key's answer to store, and the lease of
 * the effects it writes.
 */
export type WriteContext<R extends MoneyRequest = KeyedRequest> = {
  guard: 'lock' | 'versions';
  store: KeyValues<R>;
  effectLeaseSeconds: number;
  effects: readonly MoneyEffect[];
  /** The answer the decision gives: the object as the API shows it, which the writer's events report (decision 191). */
  answer: StoredResponse;
};

/** What a reader found: the key was live (a retry: nothing to decide; with versions: the key is known at all), or the facts. */
export type Read<F> = { claimed: false } | { claimed: true; facts: F };

/** What a writer did: wrote all of it; or, with versions only, nothing, because a fact it was decided on has changed. */
export type Written = 'written' | 'facts_changed';

/**
 * An operation whose reader and writer take the lock guard only, or both (`versions: true`: it is
 * tried with versions first). The writer writes all of `write`, the context's effects and answer
 * included, or nothing (throwing under the lock).
 */
export type MoneyOperation<F, W, R extends MoneyRequest = KeyedRequest> =
  | { versions?: undefined; read(guard: LockGuard<R>): Promise<Read<F>>; decide(facts: F): Decision<W>; write(tx: Tx, write: W, context: WriteContext<R>): Promise<Written> }
  | { versions: true; read(guard: ReadGuard<R>): Promise<Read<F>>; decide(facts: F): Decision<W>; write(db: DbOrTx, write: W, context: WriteContext<R>): Promise<Written> };

export type MoneyAnswer = StoredResponse & { replayed: boolean };

type Deps = { db: Db; effects: EffectDrain };

export async function runMoneyOperation<F, W, R extends MoneyRequest>(deps: Deps, request: R, operation: MoneyOperation<F, W, R>): Promise<MoneyAnswer> {
  const keyed = request.key === null ? null : (request as KeyedRequest);
  if (keyed && operation.versions) {
    const answer = await runWithVersions(deps, keyed, operation as unknown as Extract<MoneyOperation<F, W>, { versions: true }>);
    if (answer) return answer;
  }
  const outcome = await inTransaction(deps.db, async (tx): Promise<MoneyAnswer & { effects: readonly MoneyEffect[] }> => {
    const read = await operation.read({ kind: 'lock', tx, claim: (keyed && claimValues(keyed)) as KeyValues<R> });
    if (!read.claimed) {
      if (!keyed) throw new Error('runMoneyOperation: a reader found a live key for a request without one');
      return { ...(await storedAnswer(tx, keyed)), effects: [] };
    }
    const decision = operation.decide(read.facts);
    if ('refusal' in decision) throw decision.refusal;
    assertDecision(decision);
    const store = (keyed && storeValues(keyed, decision.answer)) as KeyValues<R>;
    const written = await operation.write(tx, decision.write, { guard: 'lock', store, effectLeaseSeconds: deps.effects.leaseSeconds, effects: decision.effects, answer: decision.answer });
    if (written !== 'written') throw new Error('runMoneyOperation: a writer under the lock found its facts changed');
    return { ...decision.answer, replayed: false, effects: decision.effects };
  });
  if (outcome.effects.length > 0) deps.effects.carryOut(outcome.effects);
  const { effects: _sent, ...answer } = outcome;
  return answer;
}

function assertDecision(decision: Extract<Decision<unknown>, { write: unknown }>): void {
  assertWriteSetHolds(decision.writeSet);
  if (decision.effects.length !== decision.writeSet.effects.length) {
    throw new Error(`${decision.writeSet.operation}: ${decision.effects.length} outbox rows for the core's ${decision.writeSet.effects.length} effects`);
  }
}

// Two requests meeting in the versions writer's statement can deadlock or fail to serialize like
// any two transactions; the lock guard then decides again, as it does for any change.
const CONTENDED = new Set(['40001', '40P01']);

/** The operation with the versions guard; null when it wrote nothing and the lock guard must decide. */
async function runWithVersions<F, W>(deps: Deps, request: KeyedRequest, operation: Extract<MoneyOperation<F, W>, { versions: true }>): Promise<MoneyAnswer | null> {
  const read = await operation.read({ kind: 'versions', db: deps.db, key: request.key });
  if (!read.claimed) return null;
  const decision = operation.decide(read.facts);
  // A refusal is answered from facts read under the lock, as it always was: it costs a second read
  // only when the answer is no.
  if ('refusal' in decision) return null;
  assertDecision(decision);
  const context = { guard: 'versions', store: storeValues(request, decision.answer), effectLeaseSeconds: deps.effects.leaseSeconds, effects: decision.effects, answer: decision.answer } as const;
  try {
    if ((await operation.write(deps.db, decision.write, context)) === 'facts_changed') return null;
  } catch (error) {
    if (isKeyTaken(error) || CONTENDED.has(pgCode(error) ?? '')) return null;
    throw error;
  }
  if (decision.effects.length > 0) deps.effects.carryOut(decision.effects);
  return { ...decision.answer, replayed: false };
}
