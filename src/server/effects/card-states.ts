// The card-state reconciler (decision 170): tells the card processor each issued card's state
// (active, frozen, closed) after the commit that changed it, and retries until the processor
// confirms. Not an event per change: a card's wanted state is a function of its row
// (core/card-processor-state.ts), and what the processor last confirmed is kept beside it
// (cards.processor_state), so whatever changed the card — a freeze, a cash-out or a purchase that
// emptied it, the expiry job, an account's closing — needs no statement of its own, and the money
// statements stay as they are.
//
// - A claim (one statement, `for update skip locked`, then a lease) takes the cards due: those in
//   the partial index cards_processor_state_due_idx. It writes the instruction before the call:
//   the state wanted now, numbered (processor_seq). A card claimed again with the same wanted state
//   (a failure, a lost answer, a dead instance's lease) keeps its number, so the call repeats the
//   same reference and the processor does it once; a different wanted state is a new number.
//   Because the instruction stays until confirmed, a card whose answer was lost and which then
//   went back to its old state is told again (the processor may hold the lost one).
// - The call carries `card-state:<card>:<n>:<state>` and is made with no transaction open.
// - The outcome is one statement per card, conditional on the instruction number: a confirmation
//   records the state the processor now holds (even if the card wants another by then: the next
//   run tells it that one); a failure waits retryBase × 2^(attempts-1), at most an hour, and is
//   tried again, without end: a card must not stay open at the processor because we gave up.
// - Instances running at once never take the same card (skip locked, then the lease), and a
//   process runs one pass at a time; a kick during a pass asks for one more.
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ProcessorCardState } from '../../core/card-processor-state';
import type { Adapters } from '../adapters';
import type { Db } from '../db/client';
import { CARD_PROCESSOR_STATE_DUE, CARD_PROCESSOR_STATE_WANTED } from '../db/schema';
import { namedSqlStatement } from '../db/named-statement';
import { outsideTransaction } from '../db/transaction-scope';
import { AppError } from '../lib/errors';
import { rowsOf } from '../ledger/post-journal';
import { EFFECT_CALL_TIMEOUT_MS } from './drain';

/** How often every instance looks for cards due (kicked at once after a freeze, an unfreeze, a closing, an expiry). */
export const CARD_STATES_INTERVAL_MS = 5_000;
/** After this many failed attempts of one instruction, an error is logged once: a person should look. */
export const CARD_STATE_ALERT_ATTEMPTS = 8;
const BATCH = 20;
/** Rounds per pass, so one pass has a bounded duration; the scheduler comes back for the rest. */
const MAX_ROUNDS = 50;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** One instruction: the n-th state the processor is told for this card. */
export const cardStateReference = (cardId: string, seq: number, state: ProcessorCardState) => `card-state:${cardId}:${seq}:${state}`;

const wanted = sql.raw(`(${CARD_PROCESSOR_STATE_WANTED})`);

// Not a named statement (db/named-statement.ts): PostgreSQL would keep a generic plan made on
// whatever cards held then, and on a new database that plan scans cards to update the few rows
// found. Planned per run (every few seconds, never on a request's path), it uses the partial index
// to find the cards due and the primary key to update them (card-states.test.ts reads the plan on
// a table of many cards). It never waits for a row another transaction holds (skip locked), so it
// takes part in no deadlock.
//
// The subquery repeats the index's predicate as it is, so the planner proves it. The SET reads the
// row as locked: the state wanted at this moment.
function claimSql(leaseSeconds: number): SQL {
  return sql`
    update cards c set
      processor_seq = case when c.processor_sent is not distinct from ${wanted} then c.processor_seq else c.processor_seq + 1 end,
      processor_attempts = case when c.processor_sent is not distinct from ${wanted} then c.processor_attempts + 1 else 1 end,
      processor_sent = ${wanted},
      processor_retry_at = now() + make_interval(secs => ${leaseSeconds}::float8)
    from (
      select id from cards
      where ${sql.raw(CARD_PROCESSOR_STATE_DUE)} and (processor_retry_at is null or processor_retry_at <= now())
      order by processor_retry_at nulls first
      limit ${BATCH}
      for update skip locked
    ) due
    where c.id = due.id
    returning c.id, c.provider_ref, c.processor_sent, c.processor_seq, c.processor_attempts`;
}

/** The claim as it runs, for the test that reads its plan on a table of many cards. */
export const claimCardStatesSql = () => claimSql(EFFECT_CALL_TIMEOUT_MS / 1000);

// One card per statement, by primary key: it holds one row lock at a time, so a closing that holds
// the user's cards waits for it at most a moment and can never deadlock with it. Only the
// instruction claimed (its number and state) is settled: one that a later claim replaced, or that
// another instance already confirmed after this one's lease ended, is left alone.
const outcomeStatement = namedSqlStatement(
  'card_state_outcome',
  () => sql`
    update cards set
      processor_state = case when ${sql.placeholder('confirmed')}::boolean then processor_sent else processor_state end,
      processor_sent = case when ${sql.placeholder('confirmed')}::boolean then null else processor_sent end,
      processor_attempts = case when ${sql.placeholder('confirmed')}::boolean then 0 else processor_attempts end,
      processor_retry_at = case when ${sql.placeholder('confirmed')}::boolean then null
        else now() + make_interval(secs => ${sql.placeholder('waitSeconds')}::float8) end
    where id = ${sql.placeholder('id')}::uuid and processor_seq = ${sql.placeholder('seq')}::int and processor_sent = ${sql.placeholder('state')}::text`,
);

type ClaimedRow = { id: string; provider_ref: string; processor_sent: ProcessorCardState; processor_seq: number; processor_attempts: number };
type Outcome = { id: string; seq: number; state: ProcessorCardState; confirmed: boolean; waitSeconds: number };

export type CardStateSync = {
  /** Tells the processor every card state due now; resolves once a full pass has run after this call. */
  sync(): Promise<{ confirmed: number; failed: number }>;
  /** Asks for a pass soon, outside the caller's transaction and without waiting for it. */
  kick(): void;
  /** Resolves when no pass is under way (on close). */
  idle(): Promise<void>;
};

export function createCardStateSync(deps: {
  db: Db;
  adapters: () => Adapters;
  log: FastifyBaseLogger;
  retryBaseMs: number;
  /** How long a claimed card is reserved for the pass that claimed it: longer than any call may take. */
  leaseMs?: number;
}): CardStateSync {
  const { db, log } = deps;
  const leaseMs = deps.leaseMs ?? EFFECT_CALL_TIMEOUT_MS + 5_000;
  // Live mode until a real processor exists: every call is refused the same way. Said once per
  // process, not once per card and attempt; the cards wait, retried with the back-off.
  let saidNotImplemented = false;

  async function call(row: ClaimedRow): Promise<Outcome> {
    const state = row.processor_sent;
    const base = { id: row.id, seq: row.processor_seq, state };
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${EFFECT_CALL_TIMEOUT_MS} ms`)), EFFECT_CALL_TIMEOUT_MS);
      });
      await Promise.race([deps.adapters().cardProcessor.setCardState({ providerRef: row.provider_ref, state, reference: cardStateReference(row.id, row.processor_seq, state) }), timeout]);
      return { ...base, confirmed: true, waitSeconds: 0 };
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const attempts = row.processor_attempts;
      const waitMs = Math.min(deps.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
      const details = { cardId: row.id, state, attempts, retryInMs: waitMs, error: message };
      if (error instanceof AppError && error.code === 'live_mode_not_implemented') {
        if (!saidNotImplemented) log.warn(details, 'the live card processor cannot be told card states yet (decision 170); cards wait and are retried');
        saidNotImplemented = true;
      } else if (attempts === CARD_STATE_ALERT_ATTEMPTS) {
        log.error(details, 'card state still not confirmed by the processor: a person must look (it is retried, at most an hour apart, until it is)');
      } else if (attempts === 1) {
        log.warn(details, 'card state not confirmed by the processor; will retry');
      } else {
        log.debug(details, 'card state not confirmed by the processor; will retry');
      }
      return { ...base, confirmed: false, waitSeconds: waitMs / 1000 };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Calls, then records the outcome; true when confirmed, false when not (or not recorded). */
  async function settle(row: ClaimedRow): Promise<boolean> {
    const outcome = await call(row);
    try {
      await outcomeStatement(db, outcome);
    } catch (error) {
      // Unrecorded, the card stays leased: when the lease ends a pass claims it again with the
      // same instruction, and the processor answers that repeat from its record of the reference.
      log.error({ err: error, cardId: row.id }, 'card state outcome not recorded; the instruction will be repeated');
      return false;
    }
    return outcome.confirmed;
  }

  async function pass(): Promise<{ confirmed: number; failed: number }> {
    const total = { confirmed: 0, failed: 0 };
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const rows = rowsOf<ClaimedRow>(await db.execute(claimSql(leaseMs / 1000)));
      if (rows.length === 0) break;
      const confirmed = await Promise.all(rows.map(settle));
      total.confirmed += confirmed.filter(Boolean).length;
      total.failed += confirmed.filter((c) => !c).length;
      if (rows.length < BATCH) break;
    }
    return total;
  }

  let running: Promise<{ confirmed: number; failed: number }> | undefined;
  let again = false;
  function sync(): Promise<{ confirmed: number; failed: number }> {
    if (running) {
      again = true;
      return running;
    }
    running = outsideTransaction(async () => {
      const total = { confirmed: 0, failed: 0 };
      do {
        again = false;
        const done = await pass();
        total.confirmed += done.confirmed;
        total.failed += done.failed;
      } while (again);
      return total;
    }).finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    sync,
    kick() {
      outsideTransaction(() =>
        setImmediate(() => {
          sync().catch((error: unknown) => log.error({ err: error }, 'card state sync failed'));
        }),
      );
    },
    async idle() {
      while (running) await running.catch(() => undefined);
    },
  };
}
