import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { outbox } from '../db/schema';
import type { DemoCallLog } from './demo-calls';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

// Every message is written to the outbox first (in the caller's transaction when given one), then
// delivered: through SMTP when SMTP_URL is set, otherwise it stays 'stored' for /dev/mailbox.
export interface Mailer {
  enqueue(message: MailMessage, db?: Pick<Db, 'insert'>): Promise<{ id: string }>;
  /** Delivers pending messages; returns how many were sent. */
  flush(): Promise<number>;
}

export const MAIL_FROM = 'PayWeave <no-reply@payweave.example>';
/** After this many failed attempts a message is marked 'failed' and left for a person to look at. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** Messages handled per flush, so one flush has a bounded duration. */
const MAX_MESSAGES_PER_FLUSH = 50;
/** How long a claimed message is reserved for the flusher that claimed it (longer than any send). */
const CLAIM_LEASE_MS = 5 * 60 * 1000;
/** Wait before attempt n+1 after n failures. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];
const SMTP_TIMEOUT_MS = 10_000;
/**
 * How long a message's body is kept when it was not delivered (docs/rules.md#password-reset): a reset or
 * verification link must not wait in the database for whoever reads it later. A delivered
 * message's body is deleted at once; only its envelope (address, subject, times) stays.
 */
export const OUTBOX_BODY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A purged body reads as empty; the demo mailbox lists only messages that still have one. */
export const PURGED_BODY = '';

/**
 * `calls` (demo mode): every delivery is recorded as `mailer.send` with the reference
 * `mail:<outbox id>`, and can be broken on demand like the other demo adapters (demo-calls.ts).
 * The message goes out with the Message-ID `<outbox id@payweave.example>`, so a receiver sees a
 * resend after a lost answer as the same message; the demo record deduplicates it likewise.
 */
export function createMailer(config: Pick<Config, 'smtpUrl'>, db: Db, now: () => Date = () => new Date(), calls?: DemoCallLog): Mailer {
  const transport = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      })
    : undefined;

  // Claims the oldest deliverable message: `skip locked` and the lease mean that flushers on
  // several instances never take the same message at the same time.
  async function claimNext() {
    const at = now();
    const candidate = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.status, 'pending'),
          lt(outbox.attempts, MAX_DELIVERY_ATTEMPTS),
          or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, at)),
        ),
      )
      .orderBy(asc(outbox.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: new Date(at.getTime() + CLAIM_LEASE_MS) })
      .where(inArray(outbox.id, candidate))
      .returning();
    return row;
  }

  async function deliverPending(send: Transporter): Promise<number> {
    let sent = 0;
    for (let handled = 0; handled < MAX_MESSAGES_PER_FLUSH; handled += 1) {
      const message = await claimNext();
      if (!message) break;
      try {
        const deliver = async () => {
          const info = await send.sendMail({
            from: MAIL_FROM,
            to: message.toAddress,
            subject: message.subject,
            text: message.textBody,
            ...(message.htmlBody ? { html: message.htmlBody } : {}),
            messageId: `<${message.id}@payweave.example>`,
          });
          return { messageId: String(info.messageId) };
        };
        await (calls ? calls.call('mailer.send', `mail:${message.id}`, undefined, deliver) : deliver());
        // Delivered: the body (perhaps a reset link) is not kept.
        await db
          .update(outbox)
          .set({ status: 'sent', sentAt: now(), nextAttemptAt: null, lastError: null, textBody: PURGED_BODY, htmlBody: null })
          .where(eq(outbox.id, message.id));
        sent += 1;
      } catch (error) {
        const failedFinally = message.attempts >= MAX_DELIVERY_ATTEMPTS;
        const delayMs = RETRY_DELAYS_MS[Math.min(message.attempts - 1, RETRY_DELAYS_MS.length - 1)] ?? CLAIM_LEASE_MS;
        await db
          .update(outbox)
          .set({
            status: failedFinally ? 'failed' : 'pending',
            nextAttemptAt: failedFinally ? null : new Date(now().getTime() + delayMs),
            lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
          })
          .where(eq(outbox.id, message.id));
      }
    }
    return sent;
  }

  // One flush at a time per process; a flush asked for while one runs makes it go round again,
  // so a message queued during a flush is never left for the next scheduled run.
  let running: Promise<number> | undefined;
  let again = false;

  return {
    async enqueue(message, tx) {
      const [row] = await (tx ?? db)
        .insert(outbox)
        .values({
          toAddress: message.to,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html ?? null,
          status: config.smtpUrl ? 'pending' : 'stored',
        })
        .returning({ id: outbox.id });
      if (!row) throw new Error('outbox insert returned nothing');
      return row;
    },
    flush() {
      if (!transport) return Promise.resolve(0);
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          total += await deliverPending(transport);
        } while (again);
        return total;
      })().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

/**
 * Deletes the bodies the outbox may no longer keep (scheduled job): those of delivered messages,
 * and of every message older than OUTBOX_BODY_RETENTION_MS, delivered or not. A message still
 * waiting for delivery by then gives up ('failed'): an e-mail a day late is not worth its link.
 * Returns how many bodies were deleted.
 */
export async function purgeOutboxBodies(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - OUTBOX_BODY_RETENTION_MS);
  const rows = await db
    .update(outbox)
    .set({
      textBody: PURGED_BODY,
      htmlBody: null,
      status: sql`case when ${outbox.status} = 'pending' then 'failed' else ${outbox.status} end`,
      lastError: sql`case when ${outbox.status} = 'pending' then 'not delivered within 24 hours; body deleted' else ${outbox.lastError} end`,
      nextAttemptAt: null,
    })
    .where(and(or(eq(outbox.status, 'sent'), lt(outbox.createdAt, cutoff)), or(ne(outbox.textBody, PURGED_BODY), sql`${outbox.htmlBody} is not null`)))
    .returning({ id: outbox.id });
  return rows.length;
}
