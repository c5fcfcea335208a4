// Vitest global setup of the PGlite project (decision 150): one migrated PGlite data directory per
// run, written to a file, from which each test file's in-memory database starts. A new PGlite
// cluster runs initdb, 2 to 4 s on a two-core host, and the project opens about sixty of them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { migrationsFolder } from '../../src/server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated image's file (tests/helpers/test-db.ts reads it). */
    pgliteImageFile: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const client = new PGlite();
  await client.waitReady;
  // The app's own migrator, as openDatabase runs it: a migration that fails, fails here.
  await migrate(drizzle(client), { migrationsFolder });
  const image = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'payweave-pglite-image-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('pgliteImageFile', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
