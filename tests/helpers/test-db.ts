// Each test file gets fresh databases of its own on the run's PostgreSQL server (the embedded one,
// or TEST_POSTGRES_URL's: tests/helpers/test-postgres.ts), each cloned from the run's migrated
// template and dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { withDatabase } from './test-postgres';

/**
 * A superuser's connection string to the run's PostgreSQL server, for tests that make databases
 * of their own or act on the server (pg_terminate_backend). Only inside a test worker.
 */
export function postgresAdminUrl(): string {
  return inject('testPostgresAdminUrl');
}

/** The connection string of `database` on the run's server. */
export function postgresDatabaseUrl(database: string): string {
  return withDatabase(postgresAdminUrl(), database);
}

/** A new unique database name (the caller creates and drops it). */
export function uniqueDatabaseName(prefix = 'payweave_test'): string {
  return `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
}

/** Runs `statement` on the server as the superuser, on a connection of its own. */
export async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end().catch(() => {});
  }
}

export type TestDatabase = Database & { url: string; drop(): Promise<void> };

/** A migrated database of its own (a clone of the run's template), opened as the app opens one. */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = uniqueDatabaseName();
  await adminQuery(`create database "${name}" template "${inject('testPostgresTemplate')}"`);
  const url = postgresDatabaseUrl(name);
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: options.poolSize ?? 20 });
  } catch (error) {
    await adminQuery(`drop database if exists "${name}" with (force)`);
    throw error;
  }
  return {
    ...database,
    url,
    async drop() {
      await database.close();
      await adminQuery(`drop database if exists "${name}" with (force)`);
    },
  };
}
