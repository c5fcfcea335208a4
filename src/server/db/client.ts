// One database handle for the app: PostgreSQL, always. DATABASE_URL names a server; unset, the
// app runs its own embedded PostgreSQL in DATA_DIR (embedded-server.ts). Both run the same
// migrations and are driven through the same Drizzle API.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { projectRoot } from '../lib/paths';
import { postgresChangeBus, registerChangeBus, type ChangeBus } from './change-bus';
import { ReadCache } from './read-cache';
import { openEmbeddedServer } from './embedded-server';
import { markTransactions } from './transaction-scope';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
// A transaction handle has the same query API; services accept either.
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  /** Whether this is the app's own PostgreSQL in DATA_DIR (stopped by `close`). */
  embedded: boolean;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** On the way out of a crashing process: asks the embedded PostgreSQL to stop, without waiting. */
  stopNow(): void;
  /** Sessions and card lists as last read (decision 017); kept right by `changes`. */
  readCache: ReadCache;
  /** Where committed changes that stale `readCache` are published (lib/transaction.ts `changed`). */
  changes: ChangeBus;
};

// The handles openDatabase made. A transaction has the same query API, so code that must run on a
// handle and never inside a transaction (a rate limit counts in its own statement) asks here.
const openedHandles = new WeakSet<object>();

export function isDatabaseHandle(db: object): boolean {
  return openedHandles.has(db);
}

export const migrationsFolder = path.join(projectRoot, 'migrations');
/** pg_advisory_lock key held while migrating, so that one instance migrates at a time. */
export const MIGRATION_LOCK_ID = 0x5061_7957; // "PayW"

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** Where the embedded server says what it does (first start, recovery, a restart). */
  say?: { info(message: string): void; warn(message: string): void; error(message: string): void };
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  const say = options.say ?? { info: console.log, warn: console.warn, error: console.error };
  const server = await openEmbeddedServer(options.dataDir, say);
  try {
    const database = await openPostgres(server.url, options.poolSize ?? 10);
    return {
      ...database,
      embedded: true,
      stopNow: server.stopNow,
      close: async () => {
        await database.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A runaway query must not hold a connection (and its locks) forever.
    statement_timeout: 15_000,
    idle_in_transaction_session_timeout: 15_000,
  });
  // A dropped connection (server restart, pg_terminate_backend) must not crash the process. The
  // pool listens for errors only on idle clients; a client that is checked out (mid-transaction)
  // when its connection dies emits 'error' with nobody listening, which would throw. The query in
  // flight rejects on its own (the request answers 503) and the pool discards the dead client on
  // release, so the event needs no handling beyond being heard (tests/integration/faults.test.ts).
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzle(pool, { schema }) as unknown as Db;
  markTransactions(db);
  openedHandles.add(db);
  // Instances that start together (scale-out, a rolling deploy) must not migrate side by side:
  // Drizzle's migrator takes no lock, so all but one would fail on "already exists" and exit. A
  // session advisory lock makes them take turns; the later ones find nothing left to apply.
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client, { schema }), { migrationsFolder });
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    client.release();
  } catch (error) {
    // Destroying the connection also ends its session and so releases the lock.
    client.release(error as Error);
    await pool.end().catch(() => {});
    throw error;
  }
  const readCache = new ReadCache({ enabled: false });
  const changes = postgresChangeBus(pg.Client, url, pool, readCache);
  registerChangeBus(db, changes);
  return {
    db,
    embedded: false,
    stopNow: () => {},
    ping: () => ping(db),
    close: async () => {
      await changes.close();
      await pool.end();
    },
    readCache,
    changes,
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
