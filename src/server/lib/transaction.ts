import { publishChanges } from '../db/change-bus';
import type { Db, DbOrTx, Tx } from '../db/client';
import type { Change } from '../db/read-cache';

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock
const MAX_ATTEMPTS = 3;

/** A database error's field (code, constraint), looked for through the wrappers' `cause` chain. */
function pgField(error: unknown, field: 'code' | 'constraint'): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const value = (current as Record<string, unknown>)[field];
    if (typeof value === 'string') return value;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function pgCode(error: unknown): string | undefined {
  return pgField(error, 'code');
}

/** Whether `error` is a unique violation of the named constraint. */
export function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  return pgCode(error) === '23505' && pgField(error, 'constraint') === constraint;
}

// Changes that stale cached reads, held by their transaction until it commits: told earlier, an
// instance could read the old rows again before the commit and keep them (db/read-cache.ts).
const changesByTx = new WeakMap<Tx, Change[]>();

/** Runs `work` in one transaction, retrying a bounded number of times on deadlock/serialization failure. */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const changes: Change[] = [];
    try {
      // eslint-disable-next-line no-restricted-syntax -- the one place a transaction is opened (eslint.config.js)
      const result = await db.transaction((tx) => {
        changesByTx.set(tx, changes);
        return work(tx);
      });
      publishChanges(db, changes);
      return result;
    } catch (error) {
      const code = pgCode(error);
      if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}

/**
 * Records a change that makes cached reads stale (the read cache, decision 017): on a database
 * handle the statement has already committed, so it is published now; in a transaction of
 * `inTransaction`, when that commits. Call it after the statement that made the change.
 */
export function changed(db: DbOrTx, change: Change): void {
  const pending = changesByTx.get(db as Tx);
  if (pending) return void pending.push(change);
  // Anything else (a nested transaction, one not opened by inTransaction) would drop the change
  // silently and leave a cached session or card list wrong: refuse it where it is written.
  if (!publishChanges(db, [change])) throw new Error('changed(): pass the database handle or a transaction of inTransaction');
}

export { pgCode };
