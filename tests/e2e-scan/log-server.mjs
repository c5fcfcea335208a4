#!/usr/bin/env node
// Runs the end-to-end server and keeps everything it prints in a file, for the secret scan that
// follows the Playwright run (tests/e2e-scan/scan.ts). Usage:
//   node tests/e2e-scan/log-server.mjs <log file> <server entry> [args...]
// Output still reaches this process's stdout/stderr (Playwright shows stderr, as before). A
// SIGTERM/SIGINT is passed on and this process waits for the server to finish its graceful
// shutdown, so the embedded database is closed before anyone opens the data dir again.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

const [logFile, entry, ...args] = process.argv.slice(2);
if (!logFile || !entry) {
  console.error('usage: node tests/e2e-scan/log-server.mjs <log file> <server entry> [args...]');
  process.exit(2);
}
mkdirSync(path.dirname(logFile), { recursive: true });
const log = createWriteStream(logFile, { flags: 'a' });
const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.on('data', (chunk) => {
  log.write(chunk);
  process.stdout.write(chunk);
});
child.stderr.on('data', (chunk) => {
  log.write(chunk);
  process.stderr.write(chunk);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('close', (code, signal) => {
  log.end(() => process.exit(code ?? (signal ? 1 : 0)));
});
