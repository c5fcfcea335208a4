// Two app instances on one PostgreSQL database, each with its own pool and read cache, as two
// servers behind a load balancer: for the tests that a change made on one reaches the other
// (decision 017's change bus).
import { expect } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { createTestApp, type TestApp } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-db';

/** Polls `check` until it passes or `withinMs` is over; returns how long it took. */
export async function eventually(check: () => Promise<void>, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > withinMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

export type TwoInstances = {
  /** Instance A's database (the test database itself) and instance B's own connection to it. */
  shared: TestDatabase;
  second: Database;
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
};

/** Both instances up, each listening for the other's changes, before it returns. */
export async function twoInstancesOnOnePostgres(): Promise<TwoInstances> {
  const shared = await createTestDatabase();
  const second = await openDatabase({ databaseUrl: shared.url, dataDir: 'unused', poolSize: 5 });
  const a = await createTestApp({ database: shared });
  const b = await createTestApp({ database: { ...second, url: shared.url, drop: () => second.close() } });
  await eventually(async () => expect([shared.readCache.isEnabled, second.readCache.isEnabled]).toEqual([true, true]), 5_000);
  return {
    shared,
    second,
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await second.close();
      await shared.drop();
    },
  };
}
