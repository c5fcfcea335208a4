// Vitest global setup of the integration project: the PostgreSQL server of the run and one migrated
// template database on it, from which each test file's databases are cloned (tests/helpers/test-db.ts).
//
//  - TEST_POSTGRES_URL set: that server, through that (admin) connection string;
//  - unset: a throwaway cluster of the app's own embedded PostgreSQL (src/server/db/embedded-postgres.ts)
//    in a temporary directory, so that `npm test` needs no PostgreSQL on the machine. Durability is
//    off there (fsync, synchronous commit, full page writes): nothing in it outlives the run, and the
//    real settings have tests of their own.
//
// `create database x template t` copies the migrated schema in a fraction of a second, where running
// the migrations again would take seconds per file.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';
import { embeddedUrl, ensureCluster, startPostmaster, stopPostmaster } from '../../src/server/db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser's connection string to the run's PostgreSQL server (its `postgres` database). */
    testPostgresAdminUrl: string;
    /** The migrated database each test database is cloned from. */
    testPostgresTemplate: string;
  }
}

// Durability off: nothing in this cluster outlives the run.
const TEST_CLUSTER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/**
 * Each test database has a pool of 20 by default plus the change bus's listening connection, and
 * some files open more (a concurrency test's pool of 30, two app instances, three server
 * processes): two files at a time were never seen above 35 client connections. 60 a worker, 400 at least.
 */
function maxConnections(workers: number): string {
  return String(Math.max(400, 60 * workers));
}

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let adminUrl = process.env.TEST_POSTGRES_URL;
  let stopServer = async () => {};
  if (!adminUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'payweave-test-pg-'));
    try {
      ensureCluster(dir, () => {});
      const { pid } = await startPostmaster(dir, { settings: { ...TEST_CLUSTER_SETTINGS, max_connections: maxConnections(project.globalConfig.maxWorkers) } });
      stopServer = async () => {
        await stopPostmaster(pid);
        rmSync(dir, { recursive: true, force: true });
      };
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    adminUrl = embeddedUrl(dir, 'postgres');
  }

  const template = `payweave_template_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const teardown = async () => {
    try {
      await admin(adminUrl, (client) => client.query(`drop database if exists "${template}" with (force)`));
    } finally {
      await stopServer();
    }
  };
  try {
    await admin(adminUrl, (client) => client.query(`create database "${template}"`));
    // The app's own start-up (migrations under its advisory lock): a migration that fails, fails here.
    const database = await openDatabase({ databaseUrl: withDatabase(adminUrl, template), dataDir: 'unused', poolSize: 2 });
    await database.close();
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('testPostgresAdminUrl', adminUrl);
  project.provide('testPostgresTemplate', template);
  return teardown;
}
