// The app's own PostgreSQL when DATABASE_URL is unset (docs/decisions/179-embedded-postgresql.md):
// created on first start, started (or adopted after a kill -9 of the app), held by one app at a
// time, watched and restarted if it dies, and stopped with the app.
//
// One app per DATA_DIR: the app holds a PostgreSQL advisory lock on a connection of its own for as
// long as it runs. PostgreSQL releases it when that connection ends, however the app ended, so
// there is no stale lock to clean up, and a second app is refused with the holder's name.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { writeFileDurably } from '../lib/durable-file';
import {
  EMBEDDED_DATABASE,
  embeddedPaths,
  embeddedUrl,
  ensureCluster,
  isAlive,
  runningPostmaster,
  signalPostmaster,
  startPostmaster,
  stopPostmaster,
  EmbeddedPostgresError,
} from './embedded-postgres';

/** pg_advisory_lock key of the app that owns an embedded DATA_DIR. */
export const APP_LOCK_ID = 0x5061_7941; // "PayA"
const WATCH_INTERVAL_MS = 250;

export class AlreadyRunningError extends EmbeddedPostgresError {}

type Say = { info(message: string): void; warn(message: string): void; error(message: string): void };

export type EmbeddedServer = {
  /** The app database's connection string (Unix socket, password). */
  url: string;
  /** Stops PostgreSQL (fast shutdown) and lets DATA_DIR go. */
  stop(): Promise<void>;
  /** On the way out of a crashing process: asks PostgreSQL to stop, without waiting. */
  stopNow(): void;
};

/**
 * The file that names the app running on a DATA_DIR: `npm start` reads it to refuse before
 * building. Only a hint (a killed app leaves it behind); the advisory lock decides.
 */
export function appPidFile(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'payweave.pid');
}

export function alreadyRunningMessage(dataDir: string, holder: string): string {
  return `PayWeave is already running on ${path.resolve(dataDir)} (${holder}). Stop it first (Ctrl-C in its terminal, or kill that process), or give this one another DATA_DIR.`;
}

export async function ensureDatabase(dataDir: string): Promise<void> {
  const admin = new pg.Client({ connectionString: embeddedUrl(dataDir, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) await admin.query(`create database ${EMBEDDED_DATABASE}`);
  } finally {
    await admin.end();
  }
}

async function takeAppLock(dataDir: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: embeddedUrl(dataDir), application_name: `payweave app pid ${process.pid}` });
  client.on('error', () => {});
  await client.connect();
  const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [APP_LOCK_ID]);
  if (rows[0]?.locked) return client;
  const holder = await client.query<{ application_name: string; backend_start: Date }>(
    `select a.application_name, a.backend_start from pg_locks l join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objid = $1`,
    [APP_LOCK_ID],
  );
  await client.end().catch(() => {});
  const row = holder.rows[0];
  const name = row ? `${row.application_name.replace(/^payweave app /, 'process ').replace(/^process pid /, 'process ')}, started ${row.backend_start.toISOString()}` : 'another process';
  throw new AlreadyRunningError(alreadyRunningMessage(dataDir, name));
}

/**
 * Opens the embedded PostgreSQL of `dataDir` for this app: creates it on first start, starts or
 * adopts its postmaster, takes the app lock, and from then on restarts it should it die.
 */
export async function openEmbeddedServer(dataDir: string, say: Say): Promise<EmbeddedServer> {
  ensureCluster(dataDir, say.info);
  const first = await startPostmaster(dataDir, { say: say.info });
  let pid = first.pid;
  await ensureDatabase(dataDir);
  let lock = await takeAppLock(dataDir);
  if (first.adopted) say.warn(`Found the embedded PostgreSQL (pid ${pid}) still running from an earlier start; using it.`);
  writeFileDurably(appPidFile(dataDir), `${process.pid}\n`, 0o644);

  let stopping = false;
  let restarting = false;
  const { clusterDir } = embeddedPaths(dataDir);

  // PostgreSQL killed or crashed: requests answer 503 with Retry-After meanwhile (plugins/errors.ts),
  // and the app brings it back on its own, through crash recovery, without a restart of its own.
  const restart = async () => {
    restarting = true;
    await lock.end().catch(() => {});
    for (let attempt = 0; !stopping; attempt += 1) {
      try {
        ({ pid } = await startPostmaster(dataDir, { say: say.info }));
        lock = await takeAppLock(dataDir);
        say.info(`The embedded PostgreSQL is back (pid ${pid}).`);
        break;
      } catch (error) {
        if (error instanceof AlreadyRunningError) {
          // Another app took DATA_DIR while PostgreSQL was down: two must never share it.
          say.error(error.message);
          process.kill(process.pid, 'SIGTERM');
          return;
        }
        say.warn(`The embedded PostgreSQL could not be restarted yet: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
    restarting = false;
  };
  const watch = setInterval(() => {
    if (stopping || restarting) return;
    if (!isAlive(pid) || runningPostmaster(clusterDir)?.pid !== pid) {
      say.error(`The embedded PostgreSQL (pid ${pid}) stopped unexpectedly; restarting it.`);
      void restart();
    }
  }, WATCH_INTERVAL_MS);
  watch.unref();

  const release = () => {
    stopping = true;
    clearInterval(watch);
    rmSync(appPidFile(dataDir), { force: true });
  };
  return {
    url: embeddedUrl(dataDir),
    async stop() {
      release();
      await lock.end().catch(() => {});
      await stopPostmaster(pid);
    },
    stopNow() {
      release();
      signalPostmaster(pid, 'SIGINT');
    },
  };
}

/**
 * For a tool (ledger check, backup): the embedded database's connection string while `run` runs.
 * It connects as a client to the running server, or starts the server for the run and stops it
 * after, unless an app has taken DATA_DIR meanwhile.
 */
export async function withEmbeddedDatabase<T>(dataDir: string, run: (url: string) => Promise<T>): Promise<T> {
  const { clusterDir } = embeddedPaths(dataDir);
  if (runningPostmaster(clusterDir)) return run(embeddedUrl(dataDir));
  if (!existsSync(clusterDir)) throw new EmbeddedPostgresError(`There is no embedded database in ${path.resolve(dataDir)} (start PayWeave once, or set DATA_DIR).`);
  ensureCluster(dataDir, (message) => console.error(message));
  const { pid, adopted } = await startPostmaster(dataDir);
  await ensureDatabase(dataDir);
  try {
    return await run(embeddedUrl(dataDir));
  } finally {
    if (!adopted && !(await appHoldsLock(dataDir))) await stopPostmaster(pid);
  }
}

async function appHoldsLock(dataDir: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: embeddedUrl(dataDir) });
  try {
    await client.connect();
    const { rowCount } = await client.query(`select 1 from pg_locks where locktype = 'advisory' and granted and objid = $1`, [APP_LOCK_ID]);
    return (rowCount ?? 0) > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
