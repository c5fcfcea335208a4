// Settings → Security → Recent security activity (decision 166): the account's newest security
// events from the audit log, of the kinds a user is shown (contracts/security-activity.ts), with
// the address partly masked as in the signed-in devices list. Nothing from an event's details goes
// out: they may hold other addresses (a changed e-mail) or ids that mean nothing to the user.
import { and, desc, eq, inArray } from 'drizzle-orm';
import { MAX_SECURITY_EVENTS, SECURITY_EVENT_KINDS, type SecurityEvent, type SecurityEventKind } from '../../../contracts/security-activity';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';
import { maskedIp } from './masked-ip';

export async function recentSecurityEvents(db: DbOrTx, userId: string): Promise<SecurityEvent[]> {
  const rows = await db
    .select({ event: auditLog.event, createdAt: auditLog.createdAt, ip: auditLog.ip })
    .from(auditLog)
    .where(and(eq(auditLog.userId, userId), inArray(auditLog.event, SECURITY_EVENT_KINDS)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(MAX_SECURITY_EVENTS);
  return rows.map((row) => ({ kind: row.event as SecurityEventKind, at: row.createdAt.toISOString(), ipAddress: maskedIp(row.ip) }));
}
