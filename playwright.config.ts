import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The suite runs against the production build on a fresh embedded database, with demo delays
// off and no random declines, on Debian's Chromium (test tools may not download browsers here).
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'payweave-e2e-'));
// Everything the server prints goes to a file in the data dir too: after the run, scripts/e2e.mjs
// scans it, every table and the outbox for card secrets (tests/e2e-scan/scan.ts). Logs at info,
// as in production, so the scan sees every request line.
const serverLog = path.join(dataDir, 'server.log');

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI === 'true' ? 1 : 0,
  reporter: process.env.CI === 'true' ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `node tests/e2e-scan/log-server.mjs ${JSON.stringify(serverLog)} dist/server/main.mjs`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGTERM and wait (the default is SIGKILL): the server stops its embedded PostgreSQL in order
    // (DATA_DIR/postgres), which the scan then starts again and reads.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_LATENCY_MS: '0',
      DEMO_DECLINE_RATE: '0',
      LOG_LEVEL: 'info',
      // tests/e2e/webhooks.spec.ts registers a receiver it runs on 127.0.0.1 (demo mode only).
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      E2E_DATA_DIR: dataDir,
    },
  },
});
