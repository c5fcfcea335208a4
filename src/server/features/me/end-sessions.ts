// Settings → Security → Signed-in devices (docs/decisions/164): end one of the user's other
// sessions, or all of them. The rows go, and every instance forgets its cached copy at once
// (deleteSessionOfUser / deleteUserSessions publish the change after the commit, decision 017):
// the next request with an ended session's cookie answers 401 wherever it lands.
import { eq } from 'drizzle-orm';
import { SESSION_MESSAGES } from '../../../contracts/sessions';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { AppError, notFound, unauthorized } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { deleteSessionOfUser, deleteUserSessions } from '../../plugins/session';

/** Ending sessions needs the password (or a passkey) entered in this session within 5 minutes. */
export const END_SESSIONS_REAUTH_WINDOW_MS = 5 * 60 * 1000;

type Caller = { userId: string; currentSessionId: string; now: Date; ip: string };

/**
 * The account's row is locked first, so that a user's session endings happen one at a time, and
 * the caller's session must still exist: when two devices end each other at once, the second
 * finds itself ended (401) and ends nothing, rather than both going.
 */
async function lockAccountOfLiveCaller(tx: Tx, caller: Caller): Promise<void> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.userId)).for('no key update');
  const [session] = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, caller.currentSessionId));
  if (!user || !session) throw unauthorized();
}

/** Ends one of the caller's other sessions: 404 for an id that is not theirs, 409 for their own current one. */
export async function endSession(db: Db, input: Caller & { sessionId: string }): Promise<void> {
  // A uuid is the same in any case to PostgreSQL: compare (and audit) it as stored, in lower case.
  const sessionId = input.sessionId.toLowerCase();
  if (sessionId === input.currentSessionId.toLowerCase()) throw new AppError(409, 'current_session', SESSION_MESSAGES.currentSession);
  await inTransaction(db, async (tx) => {
    await lockAccountOfLiveCaller(tx, input);
    if (!(await deleteSessionOfUser(tx, input.userId, sessionId))) throw notFound(SESSION_MESSAGES.notFound);
    await audit(tx, { userId: input.userId, event: 'session_ended', ip: input.ip, details: { sessionId }, at: input.now });
  });
}

/** Ends every session of the caller's but the current one; returns how many ended. */
export async function endOtherSessions(db: Db, input: Caller): Promise<number> {
  return inTransaction(db, async (tx) => {
    await lockAccountOfLiveCaller(tx, input);
    const ended = await deleteUserSessions(tx, input.userId, input.currentSessionId);
    await audit(tx, { userId: input.userId, event: 'other_sessions_ended', ip: input.ip, details: { endedSessions: ended }, at: input.now });
    return ended;
  });
}
