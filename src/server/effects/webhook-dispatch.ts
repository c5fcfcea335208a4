// The webhook dispatcher (docs/rules.md#webhooks, decision 191): after the commit that wrote an
// event, each of the user's enabled endpoints gets it, signed (Standard Webhooks), at least once.
// - New events are fanned out: one delivery per endpoint and event (webhook-statements.ts).
// - Due deliveries are claimed (skip locked and a lease), sent with no transaction open, and each
//   attempt recorded; the next is due on the core's schedule (nextAttemptAt), and after the last
//   the delivery is failed. Receivers deduplicate on webhook-id, the event's id.
// - The endpoint's verdict (endpointVerdict): a 410 disables it at once; 5 days of failures
//   disable it and e-mail its owner (webhook-disable.ts).
// Run by the scheduler and kicked after commits that write events, like the money effects.
import type { FastifyBaseLogger } from 'fastify';
import { endpointVerdict, nextAttemptAt, WEBHOOK_TIMEOUT_MS } from '../../core/webhook-schedule';
import type { Mailer } from '../adapters/mailer';
import { deliverWebhook, signWebhook, type ResolveAll } from '../adapters/webhook-sender';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { outsideTransaction } from '../db/transaction-scope';
import { disableEndpoint } from './webhook-disable';
import { secretsToSignWith } from './webhook-secrets';
import { claimDue, fanOut, recordAttempt, type ClaimedDelivery } from './webhook-statements';

/** Longer than an attempt may take (its 15 s deadline), so a lease never ends under a live attempt. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 15_000;
const MAX_ROUNDS = 50;

export type WebhookDispatcher = {
  /** Fans out new events and sends every delivery due at `now` (the app's clock by default). */
  dispatch(now?: Date): Promise<{ attempted: number }>;
  /** Asks for a dispatch soon, outside the caller's transaction and without waiting for it. */
  kick(): void;
  /** Resolves when no dispatch is under way (on close). */
  idle(): Promise<void>;
};

type Deps = {
  db: Db;
  config: Pick<Config, 'demoMode' | 'webhooksAllowLoopback' | 'cardDataKey' | 'appUrl'>;
  mailer: () => Pick<Mailer, 'enqueue' | 'flush'>;
  log: FastifyBaseLogger;
  now(): Date;
  /** Tests answer for DNS; by default the system's resolver. */
  resolve?: ResolveAll;
  timeoutMs?: number;
};

export function createWebhookDispatcher(deps: Deps): WebhookDispatcher {
  const { db, config, log } = deps;

  async function attempt(row: ClaimedDelivery, now: Date): Promise<void> {
    const body = JSON.stringify({ id: row.event_id, type: row.event_type, timestamp: new Date(row.event_created_at).toISOString(), data: row.event_data });
    const endpoint = { id: row.endpoint_id, secretEnc: row.secret_enc, previousSecretEnc: row.previous_secret_enc, rotatedAt: row.rotated_at === null ? null : new Date(row.rotated_at) };
    // The signature's timestamp is the wall clock's: receivers refuse one far from theirs (replays).
    const headers = signWebhook({ secrets: secretsToSignWith(config.cardDataKey, endpoint, now), id: row.event_id, timestamp: new Date(), body });
    const result = await deliverWebhook({
      url: row.url,
      headers,
      body,
      live: !config.demoMode,
      allowLoopback: config.webhooksAllowLoopback,
      ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    });
    const attemptsMade = row.attempts + 1;
    // The schedule's waits count from the end of the attempt before (core/webhook-schedule.ts).
    const next = result.ok ? null : nextAttemptAt(attemptsMade, new Date(now.getTime() + result.durationMs));
    const entry = { at: now.toISOString(), status: result.status, durationMs: result.durationMs, responseStart: result.responseStart, error: result.error ?? null };
    await recordAttempt(db, {
      deliveryId: row.id,
      endpointId: row.endpoint_id,
      entry,
      status: result.ok ? 'delivered' : next === null ? 'failed' : 'pending',
      nextAttemptAt: next,
      delivered: result.ok,
      now,
    });
    if (!result.ok) log.warn({ endpointId: row.endpoint_id, eventId: row.event_id, attempt: attemptsMade, status: result.status, error: result.error }, 'webhook attempt failed');
    const verdict = endpointVerdict({ status: result.status, firstFailureAt: row.first_failure_at === null ? null : new Date(row.first_failure_at), now });
    if (verdict.kind === 'disable') {
      const disabled = await disableEndpoint({ db, mailer: deps.mailer(), appUrl: config.appUrl }, { endpointId: row.endpoint_id, reason: verdict.reason, now });
      if (disabled) {
        log.warn({ endpointId: row.endpoint_id, reason: verdict.reason }, 'webhook endpoint disabled');
        void deps.mailer().flush().catch((error: unknown) => log.warn({ err: error }, 'outbox delivery failed; the scheduler retries'));
      }
    }
  }

  async function pass(now: Date): Promise<number> {
    for (let round = 0; round < MAX_ROUNDS && (await fanOut(db, now)) > 0; round += 1);
    let attempted = 0;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const rows = await claimDue(db, now, LEASE_MS);
      if (rows.length === 0) break;
      await Promise.all(
        rows.map((row) =>
          attempt(row, now).catch((error: unknown) => {
            // Unrecorded, the delivery stays leased; when the lease ends it is sent again (at least once).
            log.error({ err: error, deliveryId: row.id }, 'webhook attempt not recorded; it will be retried');
          }),
        ),
      );
      attempted += rows.length;
    }
    return attempted;
  }

  // One dispatch at a time per process. Asked for while one runs, one more follows it (shared by
  // everyone who asks meanwhile), so an event committed during a pass is never left for the next
  // scheduled run, and a burst of commits costs two passes, not one each.
  let running: Promise<{ attempted: number }> | undefined;
  let following: Promise<{ attempted: number }> | undefined;
  function dispatch(now?: Date): Promise<{ attempted: number }> {
    if (running) {
      if (now !== undefined) return running.catch(() => undefined).then(() => dispatch(now));
      following ??= running.catch(() => undefined).then(() => {
        following = undefined;
        return dispatch();
      });
      return following;
    }
    const run = outsideTransaction(async () => ({ attempted: await pass(now ?? deps.now()) })).finally(() => {
      if (running === run) running = undefined;
    });
    running = run;
    return run;
  }

  return {
    dispatch,
    kick() {
      outsideTransaction(() =>
        setImmediate(() => {
          dispatch().catch((error: unknown) => log.error({ err: error }, 'webhook dispatch failed'));
        }),
      );
    },
    async idle() {
      while (running) await running.catch(() => undefined);
    },
  };
}
