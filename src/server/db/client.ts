// One database handle for the app, on either engine. PGlite (PostgreSQL compiled to WASM, in
// process) is the zero-install default; DATABASE_URL switches to a real PostgreSQL server.
// Both speak the same SQL, run the same migrations and are driven through the same Drizzle API.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { projectRoot } from '../lib/paths';
import { localChangeBus, postgresChangeBus, registerChangeBus, type ChangeBus } from './change-bus';
import { ReadCache } from './read-cache';
import { markTransactions } from './transaction-scope';
import { registerRateLimitStore } from '../plugins/rate-limit';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
// A transaction handle has the same query API; services accept either.
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  engine: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Sessions and card lists as last read (decision 017); kept right by `changes`. */
  readCache: ReadCache;
  /** Where committed changes that stale `readCache` are published (lib/transaction.ts `changed`). */
  changes: ChangeBus;
};

export const migrationsFolder = path.join(projectRoot, 'migrations');
/** pg_advisory_lock key held while migrating, so that one instance migrates at a time. */
export const MIGRATION_LOCK_ID = 0x5061_7957; // "PayW"

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /**
   * For an in-memory PGlite ('memory://', tests): a data directory to start from, as PGlite's
   * `dumpDataDir()` wrote it, instead of a new cluster (whose initdb takes seconds). The migrations
   * still run on it, so a stale image is brought up to date (decision 150).
   */
  pgliteImage?: Blob;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  // 'memory://' keeps the whole database in memory (tests); otherwise it lives in DATA_DIR/pglite.
  return openPglite(options.dataDir === 'memory://' ? 'memory://' : path.join(options.dataDir, 'pglite'), options.pgliteImage);
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
  registerRateLimitStore(db, 'postgres');
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
    engine: 'postgres',
    ping: () => ping(db),
    close: async () => {
      await changes.close();
      await pool.end();
    },
    readCache,
    changes,
  };
}

async function openPglite(dir: string, image: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client;
  if (dir === 'memory://') {
    client = image ? new PGlite({ loadDataDir: image }) : new PGlite();
  } else {
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  markTransactions(db);
  registerRateLimitStore(db, 'pglite');
  await migrate(drizzle(client, { schema }), { migrationsFolder });
  // One process owns an embedded database, so this instance's own changes are all there are.
  const readCache = new ReadCache({ enabled: true });
  const changes = localChangeBus(readCache);
  registerChangeBus(db, changes);
  return {
    db,
    engine: 'pglite',
    ping: () => ping(db),
    close: () => client.close(),
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
