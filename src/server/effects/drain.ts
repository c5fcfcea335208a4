// The money-effects drain (decision 030): carries out, after their commit, the effects that
// transactions wrote (money-effects.ts), and retries until the outside system confirms.
//
// - The hot writers (the cash-out's statement, the completion's write) write their effects already
//   claimed: leased to themselves, as a claim would (decision 140). Once their commit is known they
//   hand them to `carryOut`, which calls at once, with no claim statement; if this process dies
//   first, the lease ends and any drain takes them.
// - Anything else due (effects written unclaimed, retries, effects of a dead process) is claimed
//   in batches by one statement (`for update skip locked`, then a lease): instances that drain at
//   the same time never take the same effect.
// - Each call carries the effect's reference, which the outside system deduplicates by, so an
//   answer lost after the thing was done costs a repeated call, never a second payout.
// - Outcomes are written in batches (one statement for every outcome known at that moment).
// - A failure waits retryBase × 2^(attempts-1) (at most an hour) before the next try; after
//   MAX_EFFECT_ATTEMPTS the effect is dead: logged at error level, left for a person.
// - No call is ever made inside a database transaction: the claim and the outcomes are single
//   statements of their own.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Adapters } from '../adapters';
import type { Db } from '../db/client';
import { namedSqlStatement, rowsWritten } from '../db/named-statement';
import { outsideTransaction } from '../db/transaction-scope';
import { rowsOf } from '../ledger/post-journal';
import { NEW_EVENT_ID_SQL } from '../events/events';
import type { MoneyEffect } from './money-effects';

export const MAX_EFFECT_ATTEMPTS = 8;
/** A call that has not answered by then counts as failed (its reference makes the retry safe). */
export const EFFECT_CALL_TIMEOUT_MS = 10_000;
const BATCH = 20;
/** Rounds per drain, so one drain has a bounded duration; the scheduler comes back for the rest. */
const MAX_ROUNDS = 50;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Outcomes per statement. */
const OUTCOME_BATCH = 200;

type EffectRow = { kind: MoneyEffect['kind']; reference: string; payload: unknown; attempts: number };

type Outcome = { reference: string; status: 'done' | 'pending' | 'dead'; error: string | null; waitSeconds: number; result: string | null };

// One statement for a batch of outcomes. A confirmed effect keeps its row (status done, with the
// provider's answer), so its reference stays taken. The effects are found through the unique
// index on reference (`= any`), whatever the table held when the plan was kept.
//
// A payout recorded done is reported in the same statement: `cashout.paid` (the cash-out as its
// `cashout.created` event showed it) or `rebate.paid` (the rebate as the combine's view shows it),
// decision 191. Only a pending effect takes an outcome, so a payout is reported paid once.
const outcomesStatement = namedSqlStatement(
  'money_effect_outcomes',
  () => sql`
    with recorded as (
      update money_effects m set status = v.status, last_error = v.error,
        done_at = case when v.status = 'done' then now() else m.done_at end,
        result = case when v.status = 'done' then v.result::jsonb else m.result end,
        next_attempt_at = case when v.status = 'done' then m.next_attempt_at else now() + make_interval(secs => v.wait_seconds) end
      from unnest(${sql.placeholder('references')}::text[], ${sql.placeholder('statuses')}::text[], ${sql.placeholder('errors')}::text[],
        ${sql.placeholder('waitSeconds')}::float8[], ${sql.placeholder('results')}::text[]) as v(reference, status, error, wait_seconds, result)
      where m.reference = any(${sql.placeholder('references')}::text[]) and m.reference = v.reference and m.status = 'pending'
      returning m.kind, m.user_id, m.payload, m.status
    ),
    paid_events as (
      insert into events (id, user_id, type, created_at, data)
      select ${NEW_EVENT_ID_SQL}, d.user_id, case d.kind when 'payout' then 'cashout.paid' else 'rebate.paid' end, now(),
        case d.kind when 'payout' then coalesce(
          (select c.data from events c where c.user_id = d.user_id and c.type = 'cashout.created' and c.data->>'id' = d.payload->>'transactionId' limit 1),
          jsonb_build_object('id', d.payload->>'transactionId'))
        else coalesce(
          (select jsonb_build_object('id', r.id, 'combineId', r.combine_id, 'sourceId', r.source_id, 'bnplFeeMaxCents', r.bnpl_fee_max_cents,
            'bnplFeeActualCents', r.bnpl_fee_actual_cents, 'rebateAmountCents', r.rebate_amount_cents, 'status', r.status,
            'payoutMethod', r.payout_method, 'processedAt', to_char(r.processed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            from rebates r where r.id = (d.payload->>'rebateId')::uuid),
          jsonb_build_object('id', d.payload->>'rebateId'))
        end
      from recorded d
      where d.status = 'done' and d.kind in ('payout', 'rebate_payout') and d.user_id is not null
        and exists (select 1 from users u where u.id = d.user_id)
      returning 1
    )
    select ${rowsWritten('paid_events')} as paid_count`,
);

/** A payout's destination as its transaction decided it (decision 168); a row written before then has none: unknown. */
function destinationOf(payload: unknown): string | null {
  const destination = (payload as { destination?: unknown }).destination;
  return typeof destination === 'string' ? destination : null;
}

export type EffectDrain = {
  /**
   * Carries out every effect due now, after the effects handed to `carryOut` so far are settled;
   * resolves once a full pass has run after this call. Returns how many were confirmed.
   */
  drain(): Promise<number>;
  /** Asks for a drain soon, outside the caller's transaction and without waiting for it. */
  kick(): void;
  /**
   * After the commit that wrote them claimed by their writer (`effectsValues(…, leaseSeconds)`):
   * carries these effects out now, without waiting for it. Only effects that commit wrote.
   */
  carryOut(effects: readonly MoneyEffect[]): void;
  /** The lease a writer gives the effects it hands to `carryOut`. */
  readonly leaseSeconds: number;
  /** Resolves when no drain, call or outcome is under way (on close). */
  idle(): Promise<void>;
};

export function createEffectDrain(deps: {
  db: Db;
  adapters: () => Adapters;
  log: FastifyBaseLogger;
  retryBaseMs: number;
  /** How long a claimed effect is reserved for this drain: longer than any call may take. */
  leaseMs?: number;
  /** Told after a payout's `cashout.paid` or `rebate.paid` event committed, so webhooks go out soon. */
  eventsWritten?: () => void;
}): EffectDrain {
  const { db, log } = deps;
  const leaseMs = deps.leaseMs ?? EFFECT_CALL_TIMEOUT_MS + 5_000;

  async function claim(): Promise<EffectRow[]> {
    return rowsOf<EffectRow>(
      await db.execute(sql`
        update money_effects set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
        where id in (
          select id from money_effects where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at limit ${BATCH} for update skip locked
        )
        returning kind, reference, payload, attempts`),
    );
  }

  // Outcomes wait for the next statement; every outcome known when it starts goes in it.
  let queued: Array<{ outcome: Outcome; settled: (error?: unknown) => void }> = [];
  let writing: Promise<void> | undefined;
  function record(outcome: Outcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      queued.push({ outcome, settled: (error) => (error === undefined ? resolve() : reject(error)) });
      // setImmediate: the outcomes of calls answered together share a statement.
      writing ??= new Promise<void>((done) => setImmediate(() => void writeQueued().finally(done)));
    });
  }
  async function writeQueued(): Promise<void> {
    try {
      while (queued.length > 0) {
        const batch = queued.slice(0, OUTCOME_BATCH);
        queued = queued.slice(batch.length);
        const outcomes = batch.map((b) => b.outcome);
        try {
          const [written] = rowsOf<{ paid_count: number }>(
            await outcomesStatement(db, {
              references: outcomes.map((o) => o.reference),
              statuses: outcomes.map((o) => o.status),
              errors: outcomes.map((o) => o.error),
              waitSeconds: outcomes.map((o) => o.waitSeconds),
              results: outcomes.map((o) => o.result),
            }),
          );
          for (const b of batch) b.settled();
          if (Number(written?.paid_count ?? 0) > 0) deps.eventsWritten?.();
        } catch (error) {
          for (const b of batch) b.settled(error);
        }
      }
    } finally {
      writing = undefined;
    }
  }

  async function perform(row: EffectRow): Promise<unknown> {
    const adapters = deps.adapters();
    const effect = { kind: row.kind, reference: row.reference, payload: row.payload } as MoneyEffect;
    switch (effect.kind) {
      case 'payout':
      case 'rebate_payout':
        return adapters.payouts.send({ method: effect.payload.method, amountCents: effect.payload.amountCents, reference: effect.reference, destination: destinationOf(row.payload) });
      case 'capture':
        return adapters.cardProcessor.capture(effect.payload.authorizationId, effect.payload.amountCents, effect.reference);
      case 'void':
        await adapters.cardProcessor.release(effect.payload.authorizationId, effect.reference);
        return { released: true };
    }
  }

  /** Calls, then records the outcome; true when confirmed, 'retry-now' when due again at once. */
  async function settle(row: EffectRow): Promise<boolean | 'retry-now'> {
    let timer: NodeJS.Timeout | undefined;
    let outcome: Outcome;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${EFFECT_CALL_TIMEOUT_MS} ms`)), EFFECT_CALL_TIMEOUT_MS);
      });
      const result = await Promise.race([perform(row), timeout]);
      outcome = { reference: row.reference, status: 'done', error: null, waitSeconds: 0, result: JSON.stringify(result ?? null) };
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const dead = row.attempts >= MAX_EFFECT_ATTEMPTS;
      const waitMs = Math.min(deps.retryBaseMs * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
      outcome = { reference: row.reference, status: dead ? 'dead' : 'pending', error: message, waitSeconds: waitMs / 1000, result: null };
      if (dead) {
        log.error({ kind: row.kind, reference: row.reference, attempts: row.attempts, error: message }, 'money effect dead-lettered: a person must look at it');
      } else {
        log.warn({ kind: row.kind, reference: row.reference, attempts: row.attempts, retryInMs: waitMs, error: message }, 'money effect failed; will retry');
      }
    } finally {
      clearTimeout(timer);
    }
    try {
      await record(outcome);
    } catch (error) {
      // Unrecorded, the effect stays leased: when the lease ends a drain calls again, and the
      // outside system answers that duplicate from its record of the reference.
      log.error({ err: error, kind: row.kind, reference: row.reference }, 'money effect outcome not recorded; the effect will be retried');
      return false;
    }
    if (outcome.status === 'done') return true;
    return outcome.status === 'pending' && outcome.waitSeconds === 0 ? 'retry-now' : false;
  }

  async function pass(): Promise<number> {
    let confirmed = 0;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const rows = await claim();
      if (rows.length === 0) break;
      const outcomes = await Promise.all(rows.map(settle));
      confirmed += outcomes.filter((o) => o === true).length;
      // Another round only if this one may have left something due: a full batch, or a retry due
      // at once. Effects committed meanwhile come with their own kick (or in carryOut).
      if (rows.length < BATCH && !outcomes.includes('retry-now')) break;
    }
    return confirmed;
  }

  // The effects handed over by their writers, until their outcomes are written.
  const carrying = new Set<Promise<unknown>>();
  async function settleCarried(): Promise<void> {
    while (carrying.size > 0) await Promise.all([...carrying]);
  }

  // One drain at a time per process; asked for while one runs, it goes round once more, so an
  // effect committed during a pass is never left for the next scheduled run.
  let running: Promise<number> | undefined;
  let again = false;
  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = outsideTransaction(async () => {
      await settleCarried();
      let total = 0;
      do {
        again = false;
        total += await pass();
      } while (again);
      return total;
    }).finally(() => {
      running = undefined;
    });
    return running;
  }

  function kick(): void {
    outsideTransaction(() =>
      setImmediate(() => {
        drain().catch((error: unknown) => log.error({ err: error }, 'money effects drain failed'));
      }),
    );
  }

  return {
    drain,
    kick,
    carryOut(effects) {
      if (effects.length === 0) return;
      outsideTransaction(() => {
        const work = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => Promise.all(effects.map((e) => settle({ kind: e.kind, reference: e.reference, payload: e.payload, attempts: 1 }))))
          .then((outcomes) => {
            // A retry due at once (no back-off configured) is the drain's to take.
            if (outcomes.includes('retry-now')) kick();
          })
          .catch((error: unknown) => log.error({ err: error }, 'money effects carry-out failed'))
          .finally(() => carrying.delete(work));
        carrying.add(work);
      });
    },
    leaseSeconds: leaseMs / 1000,
    async idle() {
      while (running || carrying.size > 0 || writing) {
        await running?.catch(() => undefined);
        await settleCarried();
        await writing;
      }
    },
  };
}
