import type { FastifyInstance } from 'fastify';
import { purgeExpiredIdempotencyKeys } from './lib/idempotency';
import { EXPIRE_CARDS_INTERVAL_MS, expireCards } from './features/cards/expire-cards';
import { purgeAuthState } from './features/auth/purge-auth-state';
import { purgePasskeyChallenges } from './features/passkeys/passkey-challenges';
import { processSubscriptionPeriodEnds } from './features/subscription/period-ends';
import { purgeOutboxBodies } from './adapters/mailer';
import { DRAFT_LIFETIME_INTERVAL_MS, settleDrafts } from './features/combines/draft-lifetime';
import { CARD_STATES_INTERVAL_MS } from './effects/card-states';

export type ScheduledJob = { name: string; intervalMs: number; run(app: FastifyInstance): Promise<void> };

// Periodic jobs (outbox delivery, card expiry, subscription period ends, key retention). Each
// run is idempotent and safe to run on every instance at once, so no leader election is needed
// (docs/scaling.md; scheduler.test.ts runs every job on three instances at once).
export const scheduledJobs: ScheduledJob[] = [
  {
    name: 'expire-cards',
    intervalMs: EXPIRE_CARDS_INTERVAL_MS,
    run: async (app) => {
      const { expired, closed } = await expireCards(app.db, app.now());
      // The processor is told at once that those cards are closed (decision 170).
      if (expired + closed > 0) app.cardStates.kick();
    },
  },
  // Unsaved drafts idle for an hour are saved for later; drafts past 7 days are deleted, their holds voided (decision 163).
  { name: 'settle-drafts', intervalMs: DRAFT_LIFETIME_INTERVAL_MS, run: async (app) => void (await settleDrafts(app)) },
  { name: 'purge-idempotency-keys', intervalMs: 60 * 60 * 1000, run: (app) => purgeExpiredIdempotencyKeys(app.db, app.now()) },
  { name: 'deliver-outbox', intervalMs: 30 * 1000, run: async (app) => void (await app.adapters.mailer.flush()) },
  // A stored message's body (a reset link) is deleted after 24 hours, a delivered one's at once.
  { name: 'purge-outbox-bodies', intervalMs: 15 * 60 * 1000, run: async (app) => void (await purgeOutboxBodies(app.db, app.now())) },
  // Money effects are drained after each commit that writes them; this picks up retries and
  // whatever a crashed instance left (decision 030).
  { name: 'drain-money-effects', intervalMs: 5 * 1000, run: async (app) => void (await app.effects.drain()) },
  // Webhooks are dispatched after each commit that writes events; this sends retries when due and
  // whatever a crashed instance left (decision 191).
  { name: 'dispatch-webhooks', intervalMs: 5 * 1000, run: async (app) => void (await app.webhooks.dispatch()) },
  // Each card's state (active, frozen, closed) to the card processor, from the cards whose state it
  // has not confirmed: a cash-out or purchase that emptied a card, retries (decision 170).
  { name: 'sync-card-states', intervalMs: CARD_STATES_INTERVAL_MS, run: async (app) => void (await app.cardStates.sync()) },
  { name: 'subscription-period-ends', intervalMs: 60 * 1000, run: async (app) => void (await processSubscriptionPeriodEnds(app.db, app.now(), { demoMode: app.config.demoMode })) },
  {
    name: 'purge-auth-state',
    intervalMs: 60 * 60 * 1000,
    run: async (app) => {
      await purgeAuthState(app.db, app.now());
      await purgePasskeyChallenges(app.db, app.now());
    },
  },
];

export function startScheduler(app: FastifyInstance): { stop(): void } {
  const timers = scheduledJobs.map((job) =>
    setInterval(() => {
      job.run(app).catch((error: unknown) => app.log.error({ err: error, job: job.name }, 'scheduled job failed'));
    }, job.intervalMs),
  );
  for (const timer of timers) timer.unref();
  return { stop: () => timers.forEach(clearInterval) };
}
