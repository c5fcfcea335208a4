// Tells every instance's read cache (db/read-cache.ts) what a committed change made stale
// (decision 017). The instance that made the change forgets at once, before it answers; the
// others learn it through PostgreSQL's LISTEN/NOTIFY on one channel. The NOTIFY is sent after the
// change's commit, in a statement of its own, batched every few milliseconds: a NOTIFY inside a
// money transaction would make those transactions commit one at a time (PostgreSQL serialises
// the commits of notifying transactions; measured here: 10,500 -> 3,300 tps in pgbench).
import type { Client, Pool } from 'pg';
import type { Change, ReadCache } from './read-cache';

export const CHANGE_CHANNEL = 'payweave_read_cache';
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'payweave-read-cache';
/** How long changes wait to share a NOTIFY (and so, roughly, how stale another instance can be). */
export const NOTIFY_BATCH_MS = 5;
/** The listening connection is pinged this often; a failed ping is a lost connection. */
export const LISTEN_HEARTBEAT_MS = 10_000;
const RECONNECT_DELAY_MS = 1_000;
// PostgreSQL refuses NOTIFY payloads from 8,000 bytes.
const MAX_PAYLOAD_BYTES = 7_000;

export type ChangeBus = {
  /** Forget on this instance now, and tell the others. Call after the change committed. */
  publish(changes: readonly Change[]): void;
  close(): Promise<void>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeChange(change: Change): string {
  switch (change.kind) {
    case 'session':
      return `s:${change.sessionId}`;
    case 'sessions-of':
      return `u:${change.userId}`;
    case 'cards-of':
      return `c:${change.userId}`;
    case 'everything':
      return '*';
  }
}

/** The changes in a NOTIFY payload; anything unexpected is read as "everything", the safe side. */
export function decodeChanges(payload: string): Change[] {
  return payload.split(',').map((part): Change => {
    const id = part.slice(2);
    if (UUID.test(id)) {
      if (part.startsWith('s:')) return { kind: 'session', sessionId: id };
      if (part.startsWith('u:')) return { kind: 'sessions-of', userId: id };
      if (part.startsWith('c:')) return { kind: 'cards-of', userId: id };
    }
    return { kind: 'everything' };
  });
}

/** Joins encoded changes into as few payloads as PostgreSQL accepts. */
export function batchPayloads(encoded: Iterable<string>): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const part of encoded) {
    if (current && current.length + 1 + part.length > MAX_PAYLOAD_BYTES) {
      payloads.push(current);
      current = '';
    }
    current = current ? `${current},${part}` : part;
  }
  if (current) payloads.push(current);
  return payloads;
}

// The bus of each open database handle, for code that holds only the handle (lib/transaction.ts).
const busByDb = new WeakMap<object, ChangeBus>();

export function registerChangeBus(db: object, bus: ChangeBus): void {
  busByDb.set(db, bus);
}

/** Publishes committed changes on the bus of a database handle; false when the handle has none. */
export function publishChanges(db: object, changes: readonly Change[]): boolean {
  const bus = busByDb.get(db);
  if (bus && changes.length > 0) bus.publish(changes);
  return bus !== undefined;
}

/**
 * The bus on a PostgreSQL server: one extra connection that LISTENs (reconnecting after a loss),
 * and NOTIFYs through the pool. The cache is on only while the LISTEN is in place: a change
 * another instance makes while this one is not listening would otherwise go unheard.
 */
export function postgresChangeBus(PgClient: typeof Client, connectionString: string, pool: Pool, cache: ReadCache): ChangeBus {
  cache.setEnabled(false);
  let listener: Client | null = null;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const pending = new Set<string>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const lost = (client: Client) => {
    if (listener !== client) return;
    listener = null;
    clearInterval(heartbeat);
    cache.setEnabled(false);
    client.end().catch(() => {});
    if (!closed) reconnectTimer = setTimeout(() => void listen(), RECONNECT_DELAY_MS).unref();
  };

  const listen = async () => {
    const client = new PgClient({ connectionString, application_name: LISTENER_APPLICATION_NAME });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      for (const change of decodeChanges(message.payload ?? '')) cache.forget(change);
    });
    listener = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch {
      lost(client);
      return;
    }
    if (closed || listener !== client) return void client.end().catch(() => {});
    cache.setEnabled(true);
    heartbeat = setInterval(() => {
      client.query('select 1').catch(() => lost(client));
    }, LISTEN_HEARTBEAT_MS).unref();
  };

  const flush = () => {
    flushTimer = undefined;
    const payloads = batchPayloads(pending);
    pending.clear();
    flushing = flushing.then(async () => {
      for (const payload of payloads) {
        // A NOTIFY that fails (the database is unreachable) leaves the other instances' entries to
        // age out (READ_CACHE_MAX_AGE_MS); there is no one to retry it with in that case.
        await pool.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, payload]).catch(() => {});
      }
    });
  };

  void listen();
  return {
    publish(changes) {
      for (const change of changes) {
        cache.forget(change);
        pending.add(encodeChange(change));
      }
      if (pending.size > 0 && !flushTimer && !closed) flushTimer = setTimeout(flush, NOTIFY_BATCH_MS);
    },
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      clearInterval(heartbeat);
      if (flushTimer) {
        clearTimeout(flushTimer);
        flush();
      }
      await flushing;
      const client = listener;
      listener = null;
      cache.setEnabled(false);
      await client?.end().catch(() => {});
    },
  };
}
