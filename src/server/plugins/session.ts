// Sessions (docs/rules.md#sessions): an opaque random token in an HttpOnly, SameSite=Lax cookie; the
// database holds only its SHA-256. Remember-me sessions last 30 days; the others are browser-
// session cookies that also end after 12 hours without a request (and after 7 days whatever
// happens). Every API request is matched to its session here and gets `request.auth`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, getTableColumns, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { sessions, users } from '../db/schema';
import { AppError, unauthorized } from '../lib/errors';
import { hashToken, isWellFormedToken, newToken } from '../lib/tokens';
import { changed, inTransaction } from '../lib/transaction';

export const SESSION_COOKIE = 'pw_session';
export const REMEMBER_ME_MS = 30 * 24 * 60 * 60 * 1000;
export const IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** A browser-session cookie can outlive the browser ("continue where you left off"): cap it too. */
export const BROWSER_SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so a busy session is not one write per request. */
export const LAST_SEEN_REFRESH_MS = 60 * 1000;

export const REAUTHENTICATION_REQUIRED_MESSAGE = 'Please enter your password again to continue.';

export type SessionAuth = { userId: string; sessionId: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of this request, or null. Set by the session plugin on /api requests. */
    auth: SessionAuth | null;
  }
}

type SessionRow = typeof sessions.$inferSelect;

// What the plugin read about the session beyond `auth`, for requireRecentPassword.
const reauthenticatedAtByRequest = new WeakMap<FastifyRequest, Date | null>();

/** Whether a stored session is still valid at `now` (absolute expiry and, without remember-me, idleness). */
export function isSessionLive(row: Pick<SessionRow, 'expiresAt' | 'lastSeenAt' | 'remember'>, now: Date): boolean {
  if (now.getTime() >= row.expiresAt.getTime()) return false;
  if (!row.remember && now.getTime() - row.lastSeenAt.getTime() >= IDLE_TIMEOUT_MS) return false;
  return true;
}

function needsLastSeenWrite(row: Pick<SessionRow, 'lastSeenAt'>, now: Date): boolean {
  return now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_REFRESH_MS;
}

function signIn(request: FastifyRequest, row: SessionRow): void {
  request.auth = { userId: row.userId, sessionId: row.id };
  reauthenticatedAtByRequest.set(request, row.reauthenticatedAt);
}

export const sessionPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    // Every API request of a signed-in user runs this lookup: prepared once (a named statement
    // per pooled connection), it skips building the query and PostgreSQL's parse and plan.
    // Only a session of an open account counts (decision 165): closing ends every session, and
    // this also ends one that a sign-in racing the closing wrote just after it.
    const sessionByTokenHash = app.db
      .select(getTableColumns(sessions))
      .from(sessions)
      .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.closedAt)))
      .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
      .prepare('session_by_token_hash');

    // The usual request (a cached, live session that needs no last_seen_at write) is answered
    // synchronously; only a cache miss, an ended session or a due last_seen_at write waits on the
    // database. Every API request passes here, so the common path costs no promise.
    async function fromDatabase(request: FastifyRequest, reply: FastifyReply, tokenHash: string, now: Date): Promise<void> {
      // A cached row that no longer looks live is read again: another instance may have seen the
      // session more recently than this one (last_seen_at is not broadcast).
      const row = await app.database.readCache.session(
        tokenHash,
        (cached) => isSessionLive(cached, now),
        async () => (await sessionByTokenHash.execute({ tokenHash }))[0],
      );
      if (!row || !isSessionLive(row, now)) {
        if (row) await deleteSession(app.db, row.id);
        clearSessionCookie(request, reply);
        return;
      }
      if (needsLastSeenWrite(row, now)) {
        await app.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.id));
        app.database.readCache.sessionSeen(tokenHash, now);
      }
      signIn(request, row);
    }

    app.addHook('onRequest', (request, reply, done) => {
      request.auth = null;
      // Static files and the SPA need no session; only the API reads it (one lookup per request).
      // Decided on the matched route, not the raw URL: `/%61pi/me` is GET /api/me (docs/rules.md#security).
      if (!request.routeOptions.url?.startsWith('/api/')) return done();
      const token = request.cookies[SESSION_COOKIE];
      if (token === undefined) return done();
      if (!isWellFormedToken(token)) {
        clearSessionCookie(request, reply);
        return done();
      }
      const now = app.now();
      const tokenHash = hashToken(token);
      const cached = app.database.readCache.cachedSession(tokenHash, (row) => isSessionLive(row, now) && !needsLastSeenWrite(row, now));
      if (cached) {
        signIn(request, cached);
        return done();
      }
      fromDatabase(request, reply, tokenHash, now).then(() => done(), done);
    });
  },
  { name: 'payweave-session', dependencies: ['@fastify/cookie'] },
);

/** The signed-in user, or AppError 401 'Please sign in to continue.'. */
export function requireUser(request: FastifyRequest): SessionAuth {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * The signed-in user if they entered their password in this session within `withinMs` (sign-in
 * or POST /api/auth/reauthenticate); otherwise 401 when signed out, or 403
 * `reauthentication_required` so the client asks for the password and retries.
 */
export function requireRecentPassword(request: FastifyRequest, withinMs: number): SessionAuth {
  const auth = requireUser(request);
  const at = reauthenticatedAtByRequest.get(request) ?? null;
  const now = request.server.now();
  if (at === null || now.getTime() - at.getTime() > withinMs) {
    throw new AppError(403, 'reauthentication_required', REAUTHENTICATION_REQUIRED_MESSAGE);
  }
  return auth;
}

export type NewSession = { sessionId: string; token: string; expiresAt: Date; remember: boolean };

/** Stores a new session (in the caller's transaction) and returns its token for the cookie. */
export async function createSession(
  db: DbOrTx,
  input: {
    userId: string;
    remember: boolean;
    now: Date;
    ip?: string | null;
    userAgent?: string | null;
    passwordEntered?: boolean;
    /** When the password was last entered, if not now (a rotated session keeps its predecessor's). */
    reauthenticatedAt?: Date | null;
    /** When the device signed in, if not now: a rotated session keeps its predecessor's (the device list shows it). */
    signedInAt?: Date;
  },
): Promise<NewSession> {
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + (input.remember ? REMEMBER_ME_MS : BROWSER_SESSION_MAX_MS));
  const [row] = await db
    .insert(sessions)
    .values({
      userId: input.userId,
      tokenHash: hashToken(token),
      remember: input.remember,
      createdAt: input.signedInAt ?? input.now,
      lastSeenAt: input.now,
      expiresAt,
      reauthenticatedAt: input.passwordEntered ? input.now : (input.reauthenticatedAt ?? null),
      ip: input.ip ?? null,
      userAgent: input.userAgent ? input.userAgent.slice(0, 300) : null,
    })
    .returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned nothing');
  return { sessionId: row.id, token, expiresAt, remember: input.remember };
}

// Every change to a session below is followed by `changed`, so that no instance goes on
// accepting a cached copy of it (db/read-cache.ts). A transaction must come from inTransaction.

export async function deleteSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
  changed(db, { kind: 'session', sessionId });
}

/** Ends one session of the user's own, never another user's. False when the user has no such session. */
export async function deleteSessionOfUser(db: DbOrTx, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  const [ended] = rows;
  if (!ended) return false;
  // The id as stored: the read cache keys sessions by it, and a uuid may arrive in upper case.
  changed(db, { kind: 'session', sessionId: ended.id });
  return true;
}

/** Ends every session of the user, or every one but `keepSessionId`. Returns how many ended. */
export async function deleteUserSessions(db: DbOrTx, userId: string, keepSessionId?: string): Promise<number> {
  const where = keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId);
  const rows = await db.delete(sessions).where(where).returning({ id: sessions.id });
  changed(db, { kind: 'sessions-of', userId });
  return rows.length;
}

/**
 * Re-authentication rotates the session (docs/rules.md#sessions): after the user proved again who they
 * are (password, authenticator code), the session they had is deleted and a new one, with a new
 * token, takes its place; the answer carries the new cookie. Whoever copied the old cookie holds
 * nothing. The new session keeps the old one's remember-me choice and sign-in time (what the
 * device list shows); `passwordEntered` marks the password as entered now (for
 * requireRecentPassword), otherwise the old mark is carried over.
 */
export async function rotateSession(request: FastifyRequest, reply: FastifyReply, input: { passwordEntered: boolean }): Promise<SessionAuth> {
  const auth = requireUser(request);
  const app = request.server;
  const now = app.now();
  const session = await inTransaction(app.db, async (tx) => {
    const [old] = await tx.delete(sessions).where(eq(sessions.id, auth.sessionId)).returning();
    // Ended meanwhile (signed out elsewhere, password reset): there is nothing to carry on.
    if (!old) throw unauthorized();
    changed(tx, { kind: 'session', sessionId: old.id });
    return createSession(tx, {
      userId: old.userId,
      remember: old.remember,
      now,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      passwordEntered: input.passwordEntered,
      reauthenticatedAt: old.reauthenticatedAt,
      signedInAt: old.createdAt,
    });
  });
  setSessionCookie(request, reply, session);
  request.auth = { userId: auth.userId, sessionId: session.sessionId };
  reauthenticatedAtByRequest.set(request, input.passwordEntered ? now : (reauthenticatedAtByRequest.get(request) ?? null));
  return request.auth;
}

export async function markReauthenticated(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ reauthenticatedAt: now }).where(eq(sessions.id, sessionId));
  changed(db, { kind: 'session', sessionId });
}

/** Removes sessions that can no longer be used (scheduled job). */
export async function purgeExpiredSessions(db: DbOrTx, now: Date): Promise<void> {
  await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, now),
        and(eq(sessions.remember, false), lt(sessions.lastSeenAt, new Date(now.getTime() - IDLE_TIMEOUT_MS))),
      ),
    );
}

function cookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

/** Remember-me: a persistent cookie ending with the session; otherwise a browser-session cookie. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    ...cookieOptions(request),
    ...(session.remember ? { expires: session.expiresAt, maxAge: Math.floor((session.expiresAt.getTime() - request.server.now().getTime()) / 1000) } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
