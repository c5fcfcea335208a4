import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { Adapters } from '../../src/server/adapters';
import type { DemoCallLog } from '../../src/server/adapters/demo-calls';
import { guardAdapters, type AdapterGuard } from './adapter-guard';
import { createTestDatabase, type TestDatabase } from './test-db';

export const TEST_CARD_DATA_KEY = '0f'.repeat(32);

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: '/tmp/payweave-test-unused',
    DEMO_LATENCY_MS: '0',
    DEMO_DECLINE_RATE: '0',
    CARD_DATA_KEY: TEST_CARD_DATA_KEY,
    LOG_LEVEL: 'silent',
    // A failed money effect is retried at once in tests (the drain's back-off is tested apart).
    EFFECT_RETRY_BASE_MS: '0',
    // Live mode refuses to start without SMTP (docs/rules.md#demo-mailbox): a closed local port, so a live-mode
    // test's mail is attempted, refused at once and retried later, never delivered anywhere.
    ...(overrides.DEMO_MODE === 'false' ? { SMTP_URL: 'smtp://127.0.0.1:9' } : {}),
    ...overrides,
  });
}

export type TestApp = {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  /** Outside calls made inside a transaction (docs/rules.md#outside-effects); close() fails when there are any. */
  guard: AdapterGuard;
  /** Every call the demo card processor and payouts received (demo-calls.ts). */
  calls: DemoCallLog;
  close(): Promise<void>;
};

export async function createTestApp(
  options: { env?: Record<string, string>; adapters?: Partial<Adapters>; now?: () => Date; database?: TestDatabase; webRoot?: string } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(options.env);
  const app = await buildApp({ config, database, adapters: options.adapters, now: options.now, ...(options.webRoot ? { webRoot: options.webRoot } : { serveWeb: false }) });
  const calls = (app.adapters.cardProcessor as { log?: DemoCallLog }).log ?? (app.adapters.payouts as { log?: DemoCallLog }).log;
  const guard = guardAdapters(app.adapters);
  await app.ready();
  return {
    app,
    database,
    config,
    guard,
    get calls(): DemoCallLog {
      if (!calls) throw new Error('this test app has no demo adapters');
      return calls;
    },
    async close() {
      await app.close();
      if (!options.database) await database.drop();
      if (guard.violations.length > 0) throw new Error(`outside calls inside a transaction:\n${guard.violations.join('\n')}`);
    },
  };
}
