// The one way money moves (docs/rules.md#deciding-vs-doing): every money operation is a reader, a
// decision of the core and a writer, run by this function in one transaction.
//
// 1. `read`: one statement claims the Idempotency-Key (`claimClause`, lib/idempotency.ts) and reads
//    the facts, locking the rows the decision depends on, so they cannot change until the commit.
//    A key already claimed is a retry: its stored answer is returned and nothing is decided.
// 2. `decide`: pure (the core's planner and the rows it turns into): a refusal, or the write set and
//    the answer. Nothing about the outcome is decided anywhere else.
// 3. `write`: carries the write set out, the key's answer with it (`storeClause`). A conditional
//    write that finds it cannot happen (a debit, a promo spot) throws the refusal the decision
//    named, and the whole transaction rolls back, the key's claim with it.
// 4. After the commit, the effects the write set wrote, claimed by this writer (decision 140), are
//    carried out at once; a retry or a refusal wrote none and sends none.
//
// Where the API leaves the key optional (the subscription upgrade), a request without one runs the
// same three steps once as sent: its reader claims nothing and its writer stores nothing, so a
// retry of it is a new request.
import type { Db, Tx } from '../db/client';
import type { EffectDrain } from '../effects/drain';
import type { MoneyEffect } from '../effects/money-effects';
import type { AppError } from '../lib/errors';
import { claimValues, storedAnswer, storeValues, type KeyedRequest, type StoredResponse } from '../lib/idempotency';
import { inTransaction } from '../lib/transaction';

export type { KeyedRequest };

/** A request without an Idempotency-Key, where the API leaves the key optional. */
export type UnkeyedRequest = { userId: string; key: null; now: Date };
export type MoneyRequest = KeyedRequest | UnkeyedRequest;

/**
 * For a keyed request, the values of the claim clause (given to the reader) or of the store clause
 * (given to the writer); null for an unkeyed one, whose reader claims and whose writer stores nothing.
 */
export type KeyValues<R extends MoneyRequest = KeyedRequest> = R extends KeyedRequest ? Record<string, unknown> : null;

/** The decision: a refusal (nothing is written, the key is released), or what to write and answer. */
export type Decision<W> = { refusal: AppError } | { write: W; answer: StoredResponse; effects: readonly MoneyEffect[] };

/** What a writer needs besides its write set: the key's answer to store, and the lease of the effects it writes. */
export type WriteContext<R extends MoneyRequest = KeyedRequest> = { store: KeyValues<R>; effectLeaseSeconds: number; effects: readonly MoneyEffect[] };

/** What a reader found: the key was live (a retry: nothing to decide), or the facts. */
export type Read<F> = { claimed: false } | { claimed: true; facts: F };

export type MoneyOperation<F, W, R extends MoneyRequest = KeyedRequest> = {
  /** The facts, from a first statement that also claims the key (`claim`: the claim clause's values; null: no key to claim). */
  read(tx: Tx, claim: KeyValues<R>): Promise<Read<F>>;
  decide(facts: F): Decision<W>;
  /** Writes all of `write`, the context's effects and answer included, or throws. */
  write(tx: Tx, write: W, context: WriteContext<R>): Promise<void>;
};

export type MoneyAnswer = StoredResponse & { replayed: boolean };

export async function runMoneyOperation<F, W, R extends MoneyRequest>(deps: { db: Db; effects: EffectDrain }, request: R, operation: MoneyOperation<F, W, R>): Promise<MoneyAnswer> {
  const keyed = request.key === null ? null : (request as KeyedRequest);
  const outcome = await inTransaction(deps.db, async (tx): Promise<MoneyAnswer & { effects: readonly MoneyEffect[] }> => {
    const read = await operation.read(tx, (keyed && claimValues(keyed)) as KeyValues<R>);
    if (!read.claimed) {
      if (!keyed) throw new Error('runMoneyOperation: a reader found a live key for a request without one');
      return { ...(await storedAnswer(tx, keyed)), effects: [] };
    }
    const decision = operation.decide(read.facts);
    if ('refusal' in decision) throw decision.refusal;
    const store = (keyed && storeValues(keyed, decision.answer)) as KeyValues<R>;
    await operation.write(tx, decision.write, { store, effectLeaseSeconds: deps.effects.leaseSeconds, effects: decision.effects });
    return { ...decision.answer, replayed: false, effects: decision.effects };
  });
  if (outcome.effects.length > 0) deps.effects.carryOut(outcome.effects);
  const { effects: _sent, ...answer } = outcome;
  return answer;
}
