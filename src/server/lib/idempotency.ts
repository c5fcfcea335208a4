// Idempotency keys (docs/rules.md#idempotency): a retried money request returns the first answer and does
// nothing twice. The key row is inserted as the first statement of the business transaction:
// a concurrent request with the same key blocks on that insert until the first commits (then it
// reads and returns the stored answer) or rolls back (then it does the work itself). Because the
// key and the work commit together, a crash can never leave one without the other.
import { hash } from 'node:crypto';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, DbOrTx, Tx } from '../db/client';
import { namedStatement, rowsWritten } from '../db/named-statement';
import { idempotencyKeys } from '../db/schema';
import { AppError, badRequest } from './errors';
import { inTransaction } from './transaction';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_MISMATCH_MESSAGE = 'This Idempotency-Key was already used for a different request. Use a new key for a new request.';
const KEY_PATTERN = /^[\x21-\x7e]{8,255}$/;

export type StoredResponse = { status: number; body: unknown };

export function idempotencyKeyFrom(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length === 0) throw badRequest('An Idempotency-Key header is required for this request.');
  if (!KEY_PATTERN.test(key)) throw badRequest('The Idempotency-Key header must be 8 to 255 visible ASCII characters.');
  return key;
}

export function requestFingerprint(parts: { method: string; route: string; body: unknown }): string {
  return hash('sha256', `${parts.method} ${parts.route}\n${canonicalJson(parts.body)}`, 'hex');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

// One statement claims the key: a new key is inserted, and a key older than the retention window
// is forgotten (overwritten: the request counts as new). A live key is left alone and nothing is
// returned. (It was a delete and an insert: one round trip less, docs/history/performance-log.md.)
// The claim and the store run on every money request: named statements, built once
// (db/named-statement.ts), parsed and planned once per connection.
function claimStatement(db: DbOrTx) {
  return db
    .insert(idempotencyKeys)
    .values({
      userId: sql.placeholder('iUserId'),
      key: sql.placeholder('iKey'),
      fingerprint: sql.placeholder('iFingerprint'),
      responseStatus: 0,
      responseBody: sql`'null'::jsonb`,
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { fingerprint: sql`excluded.fingerprint`, responseStatus: 0, responseBody: sql`'null'::jsonb`, createdAt: sql`excluded.created_at` },
      setWhere: sql`${idempotencyKeys.createdAt} < ${sql.placeholder('iExpiredBefore')}::timestamptz`,
    })
    .returning({ key: idempotencyKeys.key });
}
const claimKey = namedStatement('idempotency_claim', claimStatement);

/**
 * The claim as a WITH clause of a service's first statement, which then also selects
 * `claimedColumn()`: the claim costs no round trip of its own (see `withIdempotency`'s
 * `claimInFirstStatement`). The placeholders are named i…, so they do not clash with the service's.
 */
export function claimClause(db: DbOrTx) {
  return db.$with('idempotency_claim').as(claimStatement(db));
}

/** 1 when the first statement claimed the key, 0 when the key is live (a retry, or in flight). */
export function claimedColumn() {
  return sql<number>`${rowsWritten('idempotency_claim')}`.mapWith(Number);
}

const storeResponse = namedStatement('idempotency_store', (db) =>
  db
    .update(idempotencyKeys)
    .set({ responseStatus: sql`${sql.placeholder('status')}::int`, responseBody: sql`${sql.placeholder('body')}::jsonb` })
    .where(and(eq(idempotencyKeys.userId, sql.placeholder('userId')), eq(idempotencyKeys.key, sql.placeholder('key')))),
);

/**
 * The answer's store as a WITH clause of the work's last statement (`idempotency_store`, placeholders
 * named s…): it writes the answer only when `ClaimInFirstStatement.storeValues` was given one.
 * The statement then also selects `storedColumn()`.
 */
export function storeClause(): SQL {
  return sql`idempotency_store as (
    update idempotency_keys set response_status = ${sql.placeholder('sStatus')}::int, response_body = ${sql.placeholder('sBody')}::jsonb
    where user_id = ${sql.placeholder('sUserId')}::uuid and key = ${sql.placeholder('sKey')}::text and ${sql.placeholder('sStore')}::boolean
    returning 1
  )`;
}

/** 1 when the statement stored the answer, 0 when it was told not to. */
export function storedColumn(): SQL {
  return sql`${rowsWritten('idempotency_store')} as stored`;
}

/** What a service whose first statement carries the claim gets from `withIdempotency`. */
export type ClaimInFirstStatement = {
  /** The claim's placeholder values, for the first statement (built with `claimClause`). */
  values: Record<string, unknown>;
  /** Report the first statement's `claimedColumn()`; a live key ends the work here (the stored answer is returned). */
  settle(claimed: number | undefined): void;
  /**
   * The placeholder values of `storeClause()`. Given the answer, the work's statement stores it (one
   * round trip less) and the work must then return that very answer; given null, the clause
   * stores nothing and `withIdempotency` stores what the work returns, as usual.
   */
  storeValues(response: StoredResponse | null): Record<string, unknown>;
  /** Report the statement's `storedColumn()`. */
  settleStore(stored: number | undefined): void;
};

// Thrown by settle(0): not an error, the way out of the service's work to the stored answer.
class KeyIsLive extends Error {}

/**
 * Runs `work` once per (user, key). Business errors (AppError) roll the transaction back and
 * release the key, so a retry re-evaluates: nothing was done, so nothing can be done twice.
 *
 * By default the key is claimed by its own statement before `work` runs. With
 * `claimInFirstStatement`, `work`'s first statement carries the claim instead (one round trip
 * less; the cash-out and the combine completion do this) and must call `claim.settle(...)` with
 * its `claimedColumn()` before anything else. Its last statement may also store the answer
 * (`storeClause`, `claim.storeValues(answer)`, `claim.settleStore(...)`: the combine completion);
 * the work must then return that same answer, or the transaction rolls back.
 */
export async function withIdempotency(
  db: Db,
  input: { userId: string; key: string; fingerprint: string; now: Date },
  work: (tx: Tx, claim: ClaimInFirstStatement) => Promise<StoredResponse>,
  options: { claimInFirstStatement?: boolean } = {},
): Promise<StoredResponse & { replayed: boolean }> {
  const expiredBefore = new Date(input.now.getTime() - IDEMPOTENCY_RETENTION_MS);
  const values = { iUserId: input.userId, iKey: input.key, iFingerprint: input.fingerprint, iExpiredBefore: expiredBefore.toISOString() };
  return inTransaction(db, async (tx) => {
    let settled: number | undefined;
    // The answer the work's own statement stores, and whether that statement said it did.
    let storedByWork: StoredResponse | null = null;
    let storeSettled = false;
    const claim: ClaimInFirstStatement = {
      values,
      settle(claimed) {
        if (claimed !== 0 && claimed !== 1) throw new Error(`withIdempotency: the first statement reported claimed = ${claimed}`);
        settled = claimed;
        if (claimed === 0) throw new KeyIsLive();
      },
      storeValues(response) {
        storedByWork = response;
        storeSettled = false;
        const store = response !== null;
        return { sUserId: input.userId, sKey: input.key, sStore: store, sStatus: response?.status ?? 0, sBody: store ? JSON.stringify(response.body ?? null) : 'null' };
      },
      settleStore(stored) {
        const expected = storedByWork === null ? 0 : 1;
        if (stored !== expected) throw new Error(`withIdempotency: the statement stored ${stored} answers, not ${expected}`);
        storeSettled = true;
      },
    };
    if (!options.claimInFirstStatement) {
      settled = (await claimKey(tx, values)).length;
      if (settled === 0) return storedAnswer(tx, input);
    }
    let response: StoredResponse;
    try {
      response = await work(tx, claim);
    } catch (error) {
      if (error instanceof KeyIsLive) return storedAnswer(tx, input);
      throw error;
    }
    if (settled !== 1) throw new Error('withIdempotency: the work never settled its claim');
    const stored = storedByWork as StoredResponse | null;
    if (stored === null) {
      await storeResponse(tx, { userId: input.userId, key: input.key, status: response.status, body: JSON.stringify(response.body ?? null) });
    } else if (!storeSettled || stored.status !== response.status || stored.body !== response.body) {
      // A retry would be answered with what was stored: it must be what this request answers.
      throw new Error('withIdempotency: the work returned another answer than the one its statement stored');
    }
    return { ...response, replayed: false };
  });
}

/** The answer stored under a live key: the same request's first answer, or a clear refusal. */
async function storedAnswer(tx: Tx, input: { userId: string; key: string; fingerprint: string }): Promise<StoredResponse & { replayed: boolean }> {
  const [stored] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, input.userId), eq(idempotencyKeys.key, input.key)));
  if (!stored) throw new AppError(409, 'conflict', 'This request is still being processed. Please retry in a moment.');
  return replayStored(stored, input.fingerprint);
}

/** A live key's stored answer for a request with `fingerprint`: the first answer, or 422 for another request. */
export function replayStored(stored: { fingerprint: string; responseStatus: number; responseBody: unknown }, fingerprint: string): StoredResponse & { replayed: true } {
  if (stored.fingerprint !== fingerprint) throw new AppError(422, 'idempotency_mismatch', IDEMPOTENCY_MISMATCH_MESSAGE);
  return { status: stored.responseStatus, body: stored.responseBody, replayed: true };
}

/** A key as a statement outside any transaction found it (no key: null, or every field null from a left join). */
export type KeyFound = { fingerprint: string | null; status: number | null; body: unknown; expired: boolean | null };

/**
 * What a key found outside a transaction calls for: its stored answer (or 422 for a different
 * request), `use-transaction` when the locked transaction must decide, or null when there is no
 * key. An expired key counts as new, and the locked transaction overwrites it. Status 0 is a claim
 * in flight, which a committed read cannot see through; the locked transaction would wait for it.
 */
export function keyFoundOutside(found: KeyFound | null, fingerprint: string): (StoredResponse & { replayed: true }) | 'use-transaction' | null {
  if (found === null || found.fingerprint === null) return null;
  if (found.expired || found.status === 0) return 'use-transaction';
  return replayStored({ fingerprint: found.fingerprint, responseStatus: found.status ?? 0, responseBody: found.body }, fingerprint);
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)));
}
