// The two statements of a sign-in: the account by e-mail before the password check, and
// after it everything a signed-in answer needs in one round trip. Named statements built once
// (db/named-statement.ts, decision 015): sign-in is the busiest write of the app after money, and
// PostgreSQL's parse and plan and Drizzle's query building were most of its non-hash CPU.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { auditLog, sessions, users, type payoutMethods } from '../../db/schema';
import { hashToken, newToken } from '../../lib/tokens';
import { profileColumns, type ProfileUser } from './get-profile';
import { BROWSER_SESSION_MAX_MS, REMEMBER_ME_MS, type NewSession } from '../../plugins/session';

export const accountByEmail = namedStatement('sign_in_account', (db) =>
  db
    .select({ id: users.id, passwordHash: users.passwordHash, totpEnabled: users.totpEnabled })
    .from(users)
    // A closed account (decision 165) signs in no more: to sign-in it is an unknown e-mail.
    .where(and(eq(users.email, sql.placeholder('email')), isNull(users.closedAt))),
);

// The session row is the one createSession (plugins/session.ts) writes for a password sign-in:
// same token, expiry and user-agent rules, reauthenticated_at = now; the audit row is audit()'s.
// The session the browser held before is deleted in the same statement (session fixation,
// docs/rules.md#security): all of it commits or none of it, as the transaction of three statements did.
// Placeholders skip Drizzle's column encoders: timestamps go as ISO strings (decision 015).
// The payout methods travel as JSON, their last use as milliseconds since the epoch.
const signedInStatement = namedStatement('sign_in_session', (db) => {
  const endedSession = db
    .$with('ended_session')
    .as(db.delete(sessions).where(eq(sessions.id, sql`${sql.placeholder('previousSessionId')}::uuid`)).returning({ id: sessions.id }));
  const newSession = db.$with('new_session').as(
    db
      .insert(sessions)
      .values({
        userId: sql.placeholder('userId'),
        tokenHash: sql.placeholder('tokenHash'),
        remember: sql.placeholder('remember'),
        createdAt: sql`${sql.placeholder('now')}::timestamptz`,
        lastSeenAt: sql`${sql.placeholder('now')}::timestamptz`,
        expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`,
        reauthenticatedAt: sql`${sql.placeholder('now')}::timestamptz`,
        ip: sql.placeholder('ip'),
        userAgent: sql.placeholder('userAgent'),
      })
      .returning({ id: sessions.id }),
  );
  const signInAudit = db.$with('sign_in_audit').as(
    db
      .insert(auditLog)
      .values({
        userId: sql.placeholder('userId'),
        event: 'sign_in',
        ip: sql.placeholder('ip'),
        details: sql`jsonb_build_object('rememberMe', ${sql.placeholder('remember')}::boolean)`,
        createdAt: sql`${sql.placeholder('now')}::timestamptz`,
      })
      .returning({ id: auditLog.id }),
  );
  return db
    .with(endedSession, newSession, signInAudit)
    .select({
      user: profileColumns,
      sessionId: sql<string>`(select id from new_session)`,
      methods: sql<MethodJson[] | null>`(select json_agg(json_build_object('method', pm.method, 'status', pm.status,
          'lastUsedMs', floor(extract(epoch from pm.last_used) * 1000), 'detail', pm.detail, 'destinationRef', pm.destination_ref) order by pm.created_at)
        from payout_methods pm where pm.user_id = users.id)`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')));
});

type MethodJson = { method: string; status: string; lastUsedMs: number | null; detail: string | null; destinationRef: string | null };
export type SignedInMethod = Pick<typeof payoutMethods.$inferSelect, 'method' | 'status' | 'lastUsed' | 'detail' | 'destinationRef'>;

/**
 * A password sign-in's writes and reads in one statement: the new session (and its token for the
 * cookie), the audit row, the end of the browser's previous session, and the account's profile
 * as of now. (Accounts are never deleted; if one were, the session's foreign key would refuse.)
 */
export async function createSignedInSession(
  db: DbOrTx,
  input: { userId: string; remember: boolean; now: Date; ip: string; userAgent?: string; previousSessionId?: string },
): Promise<{ session: NewSession; user: ProfileUser; methods: SignedInMethod[] }> {
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + (input.remember ? REMEMBER_ME_MS : BROWSER_SESSION_MAX_MS));
  const [row] = await signedInStatement(db, {
    userId: input.userId,
    tokenHash: hashToken(token),
    remember: input.remember,
    now: input.now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    ip: input.ip,
    userAgent: input.userAgent ? input.userAgent.slice(0, 300) : null,
    previousSessionId: input.previousSessionId ?? null,
  });
  if (!row) throw new Error('sign-in statement returned no account');
  const methods = (row.methods ?? []).map((m) => ({
    method: m.method,
    status: m.status,
    lastUsed: m.lastUsedMs === null ? null : new Date(m.lastUsedMs),
    detail: m.detail,
    destinationRef: m.destinationRef,
  }));
  return { session: { sessionId: row.sessionId, token, expiresAt, remember: input.remember }, user: row.user, methods };
}
