// Settings → Security → Signed-in devices (docs/decisions/164): the user's live sessions, the
// newest activity first, each described for a person (device, partly masked address) and never
// with its token, hash or raw user agent.
import { and, asc, desc, eq, gt, or, sql } from 'drizzle-orm';
import { MAX_LISTED_SESSIONS, type SignedInSession } from '../../../contracts/sessions';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';
import { IDLE_TIMEOUT_MS } from '../../plugins/session';
import { deviceLabel } from './device-label';
import { maskedIp } from './masked-ip';

export async function listSessions(db: DbOrTx, input: { userId: string; currentSessionId: string; now: Date }): Promise<SignedInSession[]> {
  // Live as the session plugin judges it (isSessionLive): not past its expiry, and a session
  // without remember-me not idle for 12 hours. The current session sorts first so that it is
  // always within the bound; it is also the one seen last (this request).
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, input.userId),
        gt(sessions.expiresAt, input.now),
        or(eq(sessions.remember, true), gt(sessions.lastSeenAt, new Date(input.now.getTime() - IDLE_TIMEOUT_MS))),
      ),
    )
    .orderBy(desc(sql`${sessions.id} = ${input.currentSessionId}`), desc(sessions.lastSeenAt), desc(sessions.createdAt), asc(sessions.id))
    .limit(MAX_LISTED_SESSIONS);
  return rows.map((row) => {
    const current = row.id === input.currentSessionId;
    // last_seen_at is written at most once a minute; the current session is being seen now.
    const lastSeenAt = current && row.lastSeenAt < input.now ? input.now : row.lastSeenAt;
    return {
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: lastSeenAt.toISOString(),
      device: deviceLabel(row.userAgent),
      ipAddress: maskedIp(row.ip),
      current,
    };
  });
}
