import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { Adapters } from '../../src/server/adapters';
import { createTestDatabase, testEngine, type TestDatabase, type TestEngine } from './test-db';

export const TEST_CARD_DATA_KEY = '0f'.repeat(32);

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: '/tmp/payweave-test-unused',
    DEMO_LATENCY_MS: '0',
    DEMO_DECLINE_RATE: '0',
    CARD_DATA_KEY: TEST_CARD_DATA_KEY,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

export type TestApp = {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
};

export async function createTestApp(
  options: { engine?: TestEngine; env?: Record<string, string>; adapters?: Partial<Adapters>; now?: () => Date; database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(options.engine ?? testEngine()));
  const config = testConfig(options.env);
  const app = await buildApp({ config, database, adapters: options.adapters, now: options.now, serveWeb: false });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}
