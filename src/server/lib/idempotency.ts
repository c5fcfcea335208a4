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
import { isUniqueViolationOf } from './transaction';

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
/** A keyed request: who asks, with which Idempotency-Key, for which request (its fingerprint), and when. */
export type KeyedRequest = { userId: string; key: string; fingerprint: string; now: Date };

/** The placeholders of `claimClause` (named i…, clear of the statement's own). */
export function claimValues(request: KeyedRequest): Record<string, unknown> {
  const expiredBefore = new Date(request.now.getTime() - IDEMPOTENCY_RETENTION_MS);
  return { iUserId: request.userId, iKey: request.key, iFingerprint: request.fingerprint, iExpiredBefore: expiredBefore.toISOString() };
}

/**
 * The claim as a WITH clause of an operation's first statement, which then also selects
 * `claimedColumn()`: the claim costs no round trip of its own (money/run-money-operation.ts).
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
    .set({ responseStatus: sql`${sql.placeholder('sStatus')}::int`, responseBody: sql`${sql.placeholder('sBody')}::jsonb` })
    .where(and(eq(idempotencyKeys.userId, sql.placeholder('sUserId')), eq(idempotencyKeys.key, sql.placeholder('sKey')))),
);

/** The placeholders of `storeClause`, `storeNewKeyClause` and `storeAnswer` (named s…): the answer a retry of `request` gets. */
export function storeValues(request: Pick<KeyedRequest, 'userId' | 'key' | 'fingerprint'>, answer: StoredResponse): Record<string, unknown> {
  return { sUserId: request.userId, sKey: request.key, sFingerprint: request.fingerprint, sStatus: answer.status, sBody: JSON.stringify(answer.body ?? null) };
}

/**
 * The answer's store as a WITH clause of a writer's statement (`idempotency_store`), with the
 * values of `storeValues`; the statement then also selects `storedColumn()`, which must be 1.
 */
export function storeClause(): SQL {
  return sql`idempotency_store as (
    update idempotency_keys set response_status = ${sql.placeholder('sStatus')}::int, response_body = ${sql.placeholder('sBody')}::jsonb
    where user_id = ${sql.placeholder('sUserId')}::uuid and key = ${sql.placeholder('sKey')}::text
    returning 1
  )`;
}

/**
 * The key and its answer inserted together, as a WITH clause (`idempotency_store`) of a writer that
 * claimed no key first (a request read with the versions guard, money/run-money-operation.ts):
 * written only when `condition` holds. A request that holds the key meanwhile makes the insert fail
 * on the key's primary key (`isKeyTaken`) once it commits, and the whole statement with it.
 */
export function storeNewKeyClause(condition: SQL): SQL {
  return sql`idempotency_store as (
    insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body)
    select ${sql.placeholder('sUserId')}::uuid, ${sql.placeholder('sKey')}::text, ${sql.placeholder('sFingerprint')}::text,
      ${sql.placeholder('sStatus')}::int, ${sql.placeholder('sBody')}::jsonb
    where ${condition}
    returning 1
  )`;
}

/** Whether `error` is the key's primary key refusing a second holder (see storeNewKeyClause). */
export function isKeyTaken(error: unknown): boolean {
  return isUniqueViolationOf(error, 'idempotency_keys_user_id_key_pk');
}

/** 1 when the statement stored the answer. */
export function storedColumn(): SQL {
  return sql`${rowsWritten('idempotency_store')} as stored`;
}

/** The answer's store as a statement of its own, for a writer whose writes are not one statement. */
export async function storeAnswer(tx: Tx, store: Record<string, unknown>): Promise<void> {
  const stored = await storeResponse(tx, store);
  if (rowCount(stored) !== 1) throw new Error('storeAnswer: the claimed key was not found');
}

function rowCount(result: unknown): number | null {
  const count = (result as { rowCount?: number | null }).rowCount;
  return typeof count === 'number' ? count : null;
}

/** The answer stored under a live key: the same request's first answer, or a clear refusal. */
export async function storedAnswer(tx: Tx, input: { userId: string; key: string; fingerprint: string }): Promise<StoredResponse & { replayed: boolean }> {
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

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)));
}
