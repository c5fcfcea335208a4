// Each test file gets a fresh database on the engine chosen by TEST_DB (pglite | postgres).
// PostgreSQL tests create a uniquely named database and drop it afterwards.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export type TestEngine = 'pglite' | 'postgres';

export function testEngine(): TestEngine {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

let postgresAvailable: boolean | undefined;
export async function isPostgresAvailable(): Promise<boolean> {
  if (postgresAvailable !== undefined) return postgresAvailable;
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    postgresAvailable = true;
  } catch {
    postgresAvailable = false;
  } finally {
    await client.end().catch(() => {});
  }
  return postgresAvailable;
}

/**
 * Whether this file's tests can run. Outside CI a missing PostgreSQL skips loudly; under CI=true it
 * is a failure, because a skipped suite proves nothing.
 */
export async function requireEngine(engine: TestEngine = testEngine()): Promise<boolean> {
  if (engine === 'pglite') return true;
  if (await isPostgresAvailable()) return true;
  const message = `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: PostgreSQL tests cannot run.`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n*** SKIPPING: ${message} ***\n`);
  return false;
}

let image: Blob | undefined;
/**
 * The PGlite project's migrated data directory (tests/helpers/pglite-image.ts), read once per test
 * file; other projects have none, and their PGlite databases start from a new cluster.
 */
function migratedImage(): Blob | undefined {
  const file = inject('pgliteImageFile');
  if (!file) return undefined;
  image ??= new Blob([readFileSync(file)]);
  return image;
}

export type TestDatabase = Database & { url?: string; drop(): Promise<void> };

export async function createTestDatabase(engine: TestEngine = testEngine(), options: { poolSize?: number } = {}): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ dataDir: 'memory://', databaseUrl: undefined, pgliteImage: migratedImage() });
    return { ...database, drop: () => database.close() };
  }
  const name = `payweave_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const database = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: options.poolSize ?? 20 });
  return {
    ...database,
    url,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
