// Knows whether the code running now is inside a database transaction (docs/rules.md#outside-effects: no outside
// call there). Every transaction of a handle runs in this scope, whoever opened it; the test
// helper tests/helpers/adapter-guard.ts fails a test that calls an adapter inside one.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './client';

const scope = new AsyncLocalStorage<true>();

export function insideTransaction(): boolean {
  return scope.getStore() === true;
}

/** Runs `work` (and whatever it schedules) outside any transaction's scope. */
export function outsideTransaction<T>(work: () => T): T {
  return scope.exit(work);
}

export function markTransactions(db: Db): void {
  const original = db.transaction.bind(db);
  db.transaction = ((work, config) => scope.run(true, () => original(work, config))) as Db['transaction'];
}
