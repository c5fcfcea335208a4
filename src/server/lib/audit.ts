// The security audit log: sign-ins, failed sign-ins, password and e-mail changes,
// resets and card reveals. Written in the caller's transaction when given one, so an event is
// recorded exactly when the change it describes commits. Never holds a password or a token.
import type { DbOrTx } from '../db/client';
import { auditLog } from '../db/schema';

export type AuditEvent =
  | 'account_created'
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'password_changed'
  | 'password_change_failed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'email_changed'
  | 'email_change_failed'
  | 'reauthenticated'
  | 'reauthentication_failed'
  // Open for other features (card reveal, payouts...): any snake_case name.
  | (string & {});

export type AuditEntry = {
  userId: string | null;
  event: AuditEvent;
  ip?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to the database clock; pass app.now() where tests move time. */
  at?: Date;
};

export async function audit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId,
    event: entry.event,
    ip: entry.ip ?? null,
    details: entry.details ?? {},
    ...(entry.at ? { createdAt: entry.at } : {}),
  });
}
