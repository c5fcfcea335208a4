// The signed-in app's live activity (docs/rules.md#live-activity): the events written beside each
// change (the `events` table, the same rows webhooks deliver) streamed to the user's open pages.
//
// One poll per instance, not per stream: every POLL_MS, if any stream is open here, one statement
// reads the new events of all the users with a stream, and one the sessions those streams belong
// to. A stream whose session ended (signed out, expired, the account closed, on any instance) is
// closed at the next poll. The feed learns nothing from the writers, so no writer waits for it.
//
// An event's time is its transaction's start, and transactions commit in another order than they
// start: each poll looks OVERLAP_MS back and each stream remembers what it was sent, so an event
// committed late is still sent, once. A client that comes back with Last-Event-ID gets what came
// after that event (and may see the last few again: it drops an id it has seen).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { namedSqlStatement } from '../../db/named-statement';
import { rowsOf } from '../../ledger/post-journal';
import { isSessionLive } from '../../plugins/session';

export const POLL_MS = 1_000;
export const OVERLAP_MS = 10_000;
/** A page that reconnects is sent at most this many missed events; older ones are on the pages themselves. */
const BACKLOG_LIMIT = 100;
const RESUME_WITHIN_MS = 24 * 60 * 60 * 1000;

export type LiveEvent = { id: string; type: string; createdAt: string; data: unknown };
export type Stream = { userId: string; sessionId: string; send(event: LiveEvent): void; end(): void };
type Open = Stream & { from: number; sent: Map<string, number> };
type EventRow = { id: string; user_id: string; type: string; created_at: string; data: unknown };

const p = (name: string) => sql.placeholder(name);
const newEvents = namedSqlStatement(
  'live_events_since',
  () => sql`select id, user_id, type, to_json(created_at) #>> '{}' as created_at, data from events
    where user_id = any(${p('userIds')}::uuid[]) and created_at > ${p('since')}::timestamptz
    order by created_at, id limit 1000`,
);
const liveSessions = namedSqlStatement(
  'live_sessions',
  // The user is looked up per session by its key (OFFSET 0 keeps PostgreSQL from turning it into a
  // join, which on a kept plan made while users was small scans users); a closed account's sessions
  // do not count, as at sign-in (plugins/session.ts).
  () => sql`select s.id, s.expires_at, s.last_seen_at, s.remember from sessions s
    cross join lateral (select 1 from users u where u.id = s.user_id and u.closed_at is null offset 0) open_account
    where s.id = any(${p('sessionIds')}::uuid[])`,
);
const backlog = namedSqlStatement(
  'live_backlog',
  () => sql`select e.id, e.user_id, e.type, to_json(e.created_at) #>> '{}' as created_at, e.data from events e
    join events last on last.id = ${p('lastId')} and last.user_id = e.user_id
    where e.user_id = ${p('userId')}::uuid and e.created_at > last.created_at - make_interval(secs => ${p('overlapSeconds')}::float8) and e.id <> last.id
    order by e.created_at, e.id limit ${BACKLOG_LIMIT}`,
);

const eventTime = namedSqlStatement(
  'live_event_time',
  () => sql`select to_json(created_at) #>> '{}' as created_at from events where id = ${p('id')} and user_id = ${p('userId')}::uuid`,
);

const toLive = (row: EventRow): LiveEvent => ({ id: row.id, type: row.type, createdAt: row.created_at, data: row.data });

export type EventFeed = ReturnType<typeof createEventFeed>;

export function createEventFeed(deps: { db: Db; now(): Date; log: { warn(details: object, message: string): void } }) {
  const open = new Set<Open>();
  let busy = false;

  async function poll(): Promise<void> {
    if (busy || open.size === 0) return;
    busy = true;
    const started = deps.now().getTime();
    try {
      await closeEnded(started);
      const since = Math.min(...[...open].map((stream) => stream.from), started - OVERLAP_MS);
      const userIds = [...new Set([...open].map((stream) => stream.userId))];
      const rows = userIds.length === 0 ? [] : rowsOf<EventRow>(await newEvents(deps.db, { userIds, since: new Date(since).toISOString() }));
      for (const stream of open) {
        for (const row of rows) if (row.user_id === stream.userId) deliver(stream, toLive(row));
        // Remembered as long as a poll can still see an event again.
        for (const [id, at] of stream.sent) if (at < started - 2 * OVERLAP_MS) stream.sent.delete(id);
        stream.from = Math.max(stream.from, started - OVERLAP_MS);
      }
    } catch (error) {
      deps.log.warn({ err: error }, 'live events: a poll failed; the next one tries again');
    } finally {
      busy = false;
    }
  }

  async function closeEnded(now: number): Promise<void> {
    const sessionIds = [...new Set([...open].map((stream) => stream.sessionId))];
    type SessionRow = { id: string; expires_at: string; last_seen_at: string; remember: boolean };
    const rows = rowsOf<SessionRow>(await liveSessions(deps.db, { sessionIds }));
    const live = new Set(
      rows.filter((row) => isSessionLive({ expiresAt: new Date(row.expires_at), lastSeenAt: new Date(row.last_seen_at), remember: row.remember }, new Date(now))).map((row) => row.id),
    );
    for (const stream of open) if (!live.has(stream.sessionId)) close(stream);
  }

  function deliver(stream: Open, event: LiveEvent): void {
    const at = Date.parse(event.createdAt);
    if (stream.sent.has(event.id) || at < stream.from) return;
    stream.sent.set(event.id, at);
    stream.send(event);
  }

  function close(stream: Open): void {
    if (!open.delete(stream)) return;
    stream.end();
  }

  const timer = setInterval(() => void poll(), POLL_MS);
  timer.unref();

  return {
    /** Opens `stream`: from now, or after `lastEventId` (the page's Last-Event-ID). Returns its closer. */
    async subscribe(stream: Stream, lastEventId: string | null): Promise<() => void> {
      const entry: Open = { ...stream, from: deps.now().getTime(), sent: new Map() };
      const [last] = lastEventId ? rowsOf<{ created_at: string }>(await eventTime(deps.db, { id: lastEventId, userId: stream.userId })) : [];
      // A page away for more than a day reloads what it shows; it is not sent the day's events.
      if (lastEventId && last && Date.parse(last.created_at) > entry.from - RESUME_WITHIN_MS) {
        // The page has that event: what it may have missed starts there.
        entry.from = Date.parse(last.created_at);
        entry.sent.set(lastEventId, entry.from);
        entry.from -= OVERLAP_MS;
        const missed = rowsOf<EventRow>(await backlog(deps.db, { userId: stream.userId, lastId: lastEventId, overlapSeconds: OVERLAP_MS / 1000 }));
        for (const row of missed) deliver(entry, toLive(row));
      }
      open.add(entry);
      return () => void open.delete(entry);
    },
    /** How many streams a user has open here (a bound per user, see the route). */
    streamsOf(userId: string): number {
      let count = 0;
      for (const stream of open) if (stream.userId === userId) count += 1;
      return count;
    },
    /** A poll now (tests, and a page that wants the newest at once). */
    poll,
    close(): void {
      clearInterval(timer);
      for (const stream of [...open]) close(stream);
    },
  };
}
