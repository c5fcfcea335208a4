import type { FastifyInstance } from 'fastify';

// Shared by every feature that queues e-mail (auth, me, support).

/** Sends queued e-mail now; a failure is logged and left to the scheduler's next run, never thrown. */
export async function deliverMail(app: FastifyInstance): Promise<void> {
  await app.adapters.mailer.flush().catch((error: unknown) => app.log.warn({ err: error }, 'outbox delivery failed; the scheduler retries'));
}

/** Sends queued e-mail now rather than at the next scheduled run; never delays or fails the answer. */
export function deliverMailSoon(app: FastifyInstance): void {
  void deliverMail(app);
}
