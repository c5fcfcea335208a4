#!/usr/bin/env node
// Runs the Playwright suite on Debian's Chromium, then the secret scan of what the run left behind
// (tests/e2e-scan/scan.ts: every table, the outbox and the server's log, for card numbers and
// CVVs). Without Chromium the suite cannot prove anything: outside CI it says so loudly and skips;
// under CI=true it fails.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stopLeftPostgres } from './stop-left-postgres.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const message = `Chromium not found at ${chromium}: end-to-end tests cannot run (apt-get install chromium).`;
  if (process.env.CI === 'true') {
    console.error(`ERROR: ${message}`);
    process.exit(1);
  }
  console.warn(`\n*** SKIPPING END-TO-END TESTS: ${message} ***\n`);
  process.exit(0);
}

// One data dir for the server and the scan (playwright.config.ts reads E2E_DATA_DIR).
const ownDataDir = !process.env.E2E_DATA_DIR;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'payweave-e2e-'));
const env = { ...process.env, E2E_DATA_DIR: dataDir };
const args = process.argv.slice(2);

const result = spawnSync('npx', ['playwright', 'test', ...args], { stdio: 'inherit', env });
const playwrightStatus = result.status ?? 1;

// Playwright has stopped the server (SIGTERM, graceful: it stopped its embedded PostgreSQL in
// DATA_DIR/postgres); the scan starts that PostgreSQL again, reads it as a client and stops it.
let scanStatus = 0;
if (args.some((arg) => arg === '--list' || arg === '--help' || arg === '-h')) {
  console.log('secret scan skipped: no run');
} else if (!existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))) {
  console.error(`secret scan: the e2e server left no database in ${dataDir}`);
  scanStatus = 1;
} else {
  const scan = spawnSync('npx', ['tsx', 'tests/e2e-scan/scan.ts', dataDir], { stdio: 'inherit', env });
  scanStatus = scan.status ?? 1;
}

// A server that did not stop in time leaves its PostgreSQL running: stopped here, never orphaned.
await stopLeftPostgres(dataDir);

if (playwrightStatus === 0 && scanStatus === 0) {
  if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
} else {
  console.error(`end-to-end data (database, card key, server.log) kept in ${dataDir}`);
}
process.exit(playwrightStatus !== 0 ? playwrightStatus : scanStatus);
