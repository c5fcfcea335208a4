// The webhook dispatcher's statements (webhook-dispatch.ts), each one round trip of its own and
// none inside a transaction that a call waits in. Times are the dispatcher's `now` (the app's
// clock), so a test moves the retry schedule by moving that clock.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../ledger/post-journal';

const FAN_OUT_BATCH = 500;
const CLAIM_BATCH = 20;

/**
 * New events become one delivery per enabled endpoint of their user, and are marked fanned out in
 * the same statement: an event is fanned out once however many dispatchers run (skip locked), and
 * an event whose user has no endpoint is simply kept. Returns how many events it took.
 */
export async function fanOut(db: Db, now: Date): Promise<number> {
  const [row] = rowsOf<{ taken: number }>(
    await db.execute(sql`
      with pending as (
        select id, user_id from events where fanned_out_at is null
        order by created_at limit ${FAN_OUT_BATCH} for update skip locked
      ),
      queued as (
        insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
        select w.id, p.id, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        from pending p join webhook_endpoints w on w.user_id = p.user_id and w.status = 'enabled'
        returning 1
      ),
      marked as (update events e set fanned_out_at = ${now.toISOString()}::timestamptz from pending p where e.id = p.id returning 1)
      select cardinality(array(select 1 from marked)) as taken, cardinality(array(select 1 from queued)) as queued`),
  );
  return Number(row?.taken ?? 0);
}

export type ClaimedDelivery = {
  id: string;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  rotated_at: string | null;
  first_failure_at: string | null;
  user_id: string;
  event_id: string;
  event_type: string;
  event_created_at: string;
  event_data: Record<string, unknown>;
};

/**
 * Due deliveries of enabled endpoints, leased to this dispatcher (skip locked, then a lease longer
 * than an attempt may take), so instances that dispatch at once never send the same one together.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number): Promise<ClaimedDelivery[]> {
  return rowsOf<ClaimedDelivery>(
    await db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz and w.status = 'enabled'
        order by d.next_attempt_at limit ${CLAIM_BATCH} for update of d skip locked
      )
      update webhook_deliveries d set next_attempt_at = ${now.toISOString()}::timestamptz + make_interval(secs => ${leaseMs / 1000})
      from due, webhook_endpoints w, events e
      where d.id = due.id and w.id = d.endpoint_id and e.id = d.event_id
      returning d.id, d.attempts, d.endpoint_id, w.url, w.secret_enc, w.previous_secret_enc, w.rotated_at::text, w.first_failure_at::text,
        w.user_id, e.id as event_id, e.type as event_type, e.created_at::text as event_created_at, e.data as event_data`),
  );
}

export type AttemptEntry = { at: string; status: number | null; durationMs: number; responseStart: string; error: string | null };

/**
 * One attempt's outcome: appended to the delivery's log, the delivery delivered, due again, or
 * given up; the endpoint's first failure since its last success kept or cleared.
 */
export async function recordAttempt(
  db: Db,
  input: { deliveryId: string; endpointId: string; entry: AttemptEntry; status: 'delivered' | 'pending' | 'failed'; nextAttemptAt: Date | null; delivered: boolean; now: Date },
): Promise<void> {
  const now = input.now.toISOString();
  await db.execute(sql`
    with attempt as (
      update webhook_deliveries set attempts = attempts + 1, attempt_log = attempt_log || jsonb_build_array(${JSON.stringify(input.entry)}::jsonb),
        status = ${input.status}::text, next_attempt_at = coalesce(${input.nextAttemptAt?.toISOString() ?? null}::timestamptz, next_attempt_at),
        finished_at = case when ${input.status}::text = 'pending' then null else ${now}::timestamptz end
      where id = ${input.deliveryId}::uuid
      returning 1
    )
    update webhook_endpoints set first_failure_at = case when ${input.delivered}::boolean then null else coalesce(first_failure_at, ${now}::timestamptz) end
    where id = ${input.endpointId}::uuid`);
}
