#!/usr/bin/env node
// `npm start`: refuse at once when a PayWeave already runs on this DATA_DIR, build only when a
// source is newer than the last build (a fresh clone, a pull, an edit), then run the server in this
// process. A start with nothing changed goes straight to the server (docs/decisions/179-embedded-postgresql.md).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The two bundles; the older one dates the build.
const OUTPUTS = ['dist/server/main.mjs', 'dist/web/index.html'];
// Everything they are made from (migrations are read at run time, not bundled).
const INPUTS = ['src', 'public', 'scripts/route-preloads.mjs', 'scripts/precompress-web.mjs', 'package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.json'];

// The app's own lock (an advisory lock in its PostgreSQL) decides; this quick look at the pid file
// only spares a build, and says who holds DATA_DIR in well under a second.
const dataDir = path.resolve(process.env.DATA_DIR || './data');
const pid = runningApp(dataDir);
if (pid) {
  console.error(`PayWeave is already running on ${dataDir} (process ${pid}). Stop it first (Ctrl-C in its terminal, or kill ${pid}), or give this one another DATA_DIR.`);
  process.exit(1);
}

const builtAt = Math.min(...OUTPUTS.map((file) => statSync(path.join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0));
if (newestInput() > builtAt) {
  console.log(builtAt === 0 ? 'First start: building the app...' : 'Sources changed since the last build: building...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import(path.join(root, 'dist', 'server', 'main.mjs'));

function newestInput() {
  let newest = 0;
  const visit = (file) => {
    // Tests are in src too, but in neither bundle.
    if (/\.test\.tsx?$/.test(file) || file.endsWith(`${path.sep}test`)) return;
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(file)) visit(path.join(file, name));
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return newest;
}

function runningApp(dir) {
  try {
    const found = Number(readFileSync(path.join(dir, 'payweave.pid'), 'utf8').trim());
    if (!Number.isInteger(found) || found <= 0) return undefined;
    process.kill(found, 0);
    // A PID left by a killed app may since belong to another process: only the app's own counts
    // (`npm start`, the bundle, or `npm run dev`'s server).
    const command = readFileSync(`/proc/${found}/cmdline`, 'utf8');
    return /scripts\/start\.mjs|server\/main\.(mjs|ts)/.test(command) ? found : undefined;
  } catch {
    return undefined;
  }
}
