import type { FastifyInstance } from 'fastify';

// Shared by every feature that queues e-mail (auth, me, support).
/** Sends queued e-mail now rather than at the next scheduled run; never delays or fails the answer. */
export function deliverMailSoon(app: FastifyInstance): void {
  app.adapters.mailer.flush().catch((error: unknown) => app.log.warn({ err: error }, 'outbox delivery failed; the scheduler retries'));
}
