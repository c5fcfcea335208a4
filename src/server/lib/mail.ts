import type { FastifyBaseLogger } from 'fastify';

// Shared by every feature that queues e-mail (auth, me, support). What it takes is written out
// rather than named from adapters/: this floor imports nothing above it (decision 185).
type MailDelivery = { adapters: { mailer: { flush(): Promise<unknown> } }; log: Pick<FastifyBaseLogger, 'warn'> };

/** Sends queued e-mail now; a failure is logged and left to the scheduler's next run, never thrown. */
export async function deliverMail(deps: MailDelivery): Promise<void> {
  await deps.adapters.mailer.flush().catch((error: unknown) => deps.log.warn({ err: error }, 'outbox delivery failed; the scheduler retries'));
}

/** Sends queued e-mail now rather than at the next scheduled run; never delays or fails the answer. */
export function deliverMailSoon(deps: MailDelivery): void {
  void deliverMail(deps);
}
