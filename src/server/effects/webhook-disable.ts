// An endpoint given up on (core/webhook-schedule.ts endpointVerdict): a 410 Gone at once, or every
// attempt failing for 5 days. Its waiting deliveries end as failed, and after 5 days of failures its
// owner is told by e-mail, queued in the same transaction (the mail outbox delivers it after the
// commit), so an endpoint disabled twice at once is announced once.
import { sql } from 'drizzle-orm';
import type { Mailer } from '../adapters/mailer';
import type { Db } from '../db/client';
import { rowsOf } from '../ledger/post-journal';
import { inTransaction } from '../lib/transaction';

export type DisableReason = 'gone' | 'failing_too_long';

/** Returns whether this call disabled it (false: it already was, or is gone). */
export async function disableEndpoint(deps: { db: Db; mailer: Pick<Mailer, 'enqueue'>; appUrl: string }, input: { endpointId: string; reason: DisableReason; now: Date }): Promise<boolean> {
  return inTransaction(deps.db, async (tx) => {
    const now = input.now.toISOString();
    const [row] = rowsOf<{ url: string; email: string }>(
      await tx.execute(sql`
        with disabled as (
          update webhook_endpoints set status = 'disabled', disabled_reason = ${input.reason}::text, disabled_at = ${now}::timestamptz
          where id = ${input.endpointId}::uuid and status = 'enabled'
          returning id, url, user_id
        ),
        given_up as (
          update webhook_deliveries d set status = 'failed', finished_at = ${now}::timestamptz
          from disabled where d.endpoint_id = disabled.id and d.status = 'pending'
          returning 1
        )
        select disabled.url, u.email from disabled join users u on u.id = disabled.user_id`),
    );
    if (!row) return false;
    if (input.reason === 'failing_too_long') await deps.mailer.enqueue(disabledMail(row.email, row.url, deps.appUrl), tx);
    return true;
  });
}

function disabledMail(to: string, url: string, appUrl: string) {
  return {
    to,
    subject: 'PayWeave stopped sending webhooks to one of your endpoints',
    text: [
      `Every attempt to deliver webhooks to ${url} has failed for 5 days, so PayWeave has disabled this endpoint.`,
      'Events that happen from now on are kept, but not sent to it.',
      `Once your receiver answers again, delete the endpoint and register it again (${appUrl}/api/docs, webhooks); its deliveries log shows each failed attempt's answer.`,
    ].join('\n\n'),
  };
}
