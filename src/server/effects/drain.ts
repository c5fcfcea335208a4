// The money-effects drain (decision 030): carries out, after their commit, the effects that
// transactions wrote (money-effects.ts), and retries until the outside system confirms.
//
// - A batch is claimed with one statement (`for update skip locked`, then a lease): instances
//   that drain at the same time never take the same effect, and an effect whose drainer died
//   (SIGKILL between its commit and its call) is taken again when the lease ends.
// - Each call carries the effect's reference, which the outside system deduplicates by, so an
//   answer lost after the thing was done costs a repeated call, never a second payout.
// - A failure waits retryBase × 2^(attempts-1) (at most an hour) before the next try; after
//   MAX_EFFECT_ATTEMPTS the effect is dead: logged at error level, left for a person.
// - No call is ever made inside a database transaction: the claim and the outcome are single
//   statements of their own.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Adapters } from '../adapters';
import type { Db } from '../db/client';
import { outsideTransaction } from '../db/transaction-scope';
import { rowsOf } from '../ledger/post-journal';
import type { MoneyEffect } from './money-effects';

export const MAX_EFFECT_ATTEMPTS = 8;
/** A call that has not answered by then counts as failed (its reference makes the retry safe). */
export const EFFECT_CALL_TIMEOUT_MS = 10_000;
const BATCH = 20;
/** Rounds per drain, so one drain has a bounded duration; the scheduler comes back for the rest. */
const MAX_ROUNDS = 50;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

type EffectRow = { id: string; kind: MoneyEffect['kind']; reference: string; user_id: string | null; payload: unknown; attempts: number };

export type EffectDrain = {
  /** Carries out every effect due now; resolves once a full pass has run after this call. Returns how many were confirmed. */
  drain(): Promise<number>;
  /** Asks for a drain soon, outside the caller's transaction and without waiting for it. */
  kick(): void;
  /** Resolves when no drain is running (on close). */
  idle(): Promise<void>;
};

export function createEffectDrain(deps: {
  db: Db;
  adapters: () => Adapters;
  log: FastifyBaseLogger;
  retryBaseMs: number;
  /** How long a claimed effect is reserved for this drain: longer than any call may take. */
  leaseMs?: number;
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
        returning id, kind, reference, user_id, payload, attempts`),
    );
  }

  async function perform(row: EffectRow): Promise<unknown> {
    const adapters = deps.adapters();
    const effect = { kind: row.kind, reference: row.reference, payload: row.payload } as MoneyEffect;
    switch (effect.kind) {
      case 'payout':
      case 'rebate_payout':
        return adapters.payouts.send({ method: effect.payload.method, amountCents: effect.payload.amountCents, reference: effect.reference });
      case 'capture':
        return adapters.cardProcessor.capture(effect.payload.authorizationId, effect.payload.amountCents, effect.reference);
      case 'void':
        await adapters.cardProcessor.release(effect.payload.authorizationId, effect.reference);
        return { released: true };
    }
  }

  async function settle(row: EffectRow): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${EFFECT_CALL_TIMEOUT_MS} ms`)), EFFECT_CALL_TIMEOUT_MS);
      });
      const result = await Promise.race([perform(row), timeout]);
      await db.execute(sql`
        update money_effects set status = 'done', done_at = now(), last_error = null, result = ${JSON.stringify(result ?? null)}::jsonb
        where id = ${row.id}::uuid`);
      return true;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const dead = row.attempts >= MAX_EFFECT_ATTEMPTS;
      const waitMs = Math.min(deps.retryBaseMs * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
      await db.execute(sql`
        update money_effects set status = ${dead ? 'dead' : 'pending'}, last_error = ${message},
          next_attempt_at = now() + make_interval(secs => ${waitMs / 1000})
        where id = ${row.id}::uuid`);
      if (dead) {
        log.error({ effectId: row.id, kind: row.kind, reference: row.reference, attempts: row.attempts, error: message }, 'money effect dead-lettered: a person must look at it');
      } else {
        log.warn({ effectId: row.id, kind: row.kind, reference: row.reference, attempts: row.attempts, retryInMs: waitMs, error: message }, 'money effect failed; will retry');
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async function pass(): Promise<number> {
    let confirmed = 0;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const rows = await claim();
      if (rows.length === 0) break;
      const outcomes = await Promise.all(rows.map(settle));
      confirmed += outcomes.filter(Boolean).length;
    }
    return confirmed;
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

  return {
    drain,
    kick() {
      outsideTransaction(() =>
        setImmediate(() => {
          drain().catch((error: unknown) => log.error({ err: error }, 'money effects drain failed'));
        }),
      );
    },
    async idle() {
      while (running) await running.catch(() => undefined);
    },
  };
}
