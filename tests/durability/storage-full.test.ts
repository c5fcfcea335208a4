// A full disk under load (docs/decisions/181-storage-full-and-health.md), on small tmpfs file
// systems mounted for the test (root only), while 4 clients send idempotent 2-cent cash-outs and
// do as told (503: wait, then the same key again):
//  1. DATA_DIR on a small tmpfs, filled by a filler file: table files and WAL share the disk;
//  2. only the table files full (DATA_DIR on a small tmpfs, pg_wal on the big disk through a
//     symlink made while the cluster is stopped): PostgreSQL's own disk_full (SQLSTATE 53100);
//  3. only pg_wal on a small tmpfs (symlink), filled;
//  4. the same, outrun: the WAL's disk filled to the last megabyte and WAL written around the app,
//     so that PostgreSQL PANICs and cannot restart until space is freed, as PostgreSQL 18 does.
// Writes answer 503 storage_full with Retry-After and a person's message, never 500; GET
// /api/health says the database cannot write; reads keep working (1-3); once the filler is
// removed, writes resume without an app restart, and nothing acknowledged is missing.
import { execFileSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statfsSync, symlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedPaths, embeddedUrl } from '../../src/server/db/embedded-postgres';
import { STORAGE_FULL_MESSAGE } from '../../src/server/plugins/errors';
import {
  burst,
  cleanUp,
  count,
  errorCodeOf,
  freshDir,
  fundedCard,
  http,
  postmasterPid,
  removeServerBundle,
  retryUnacknowledged,
  serverBundle,
  signUp,
  sleep,
  startApp,
  waitFor,
  type Answer,
  type App,
  type Attempt,
  type Lane,
  type User,
} from './harness';

const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn('\n*** SKIPPING storage-full durability: mounting tmpfs needs root (CI runs as root). ***\n');

const MB = 1024 * 1024;
const freeBytes = (dir: string) => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

const mounts: string[] = [];
function mountTmpfs(dir: string, sizeMb: number): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
}

/**
 * Filler files that leave about `leaveBytes` free on the file system of `dir` (the app writes
 * meanwhile): most of it at once, the rest 64 KB at a time until that much is left, or none.
 * Returns a function that removes them.
 */
function fill(dir: string, leaveBytes: number): () => void {
  const bulk = path.join(dir, 'filler');
  const rest = path.join(dir, 'filler-rest');
  const size = freeBytes(dir) - leaveBytes - 4 * MB;
  if (size > 0) execFileSync('fallocate', ['-l', String(size), bulk]);
  const fd = openSync(rest, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    while (freeBytes(dir) > leaveBytes) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return () => {
    rmSync(bulk, { force: true });
    rmSync(rest, { force: true });
  };
}

/** Moves pg_wal of the (stopped) cluster onto `walDisk` and leaves a symlink in its place. */
function moveWal(dataDir: string, walDisk: string): void {
  const walDir = path.join(embeddedPaths(dataDir).clusterDir, 'pg_wal');
  const target = path.join(walDisk, 'pg_wal');
  cpSync(walDir, target, { recursive: true, preserveTimestamps: true });
  rmSync(walDir, { recursive: true });
  symlinkSync(target, walDir);
}

type Timed = { at: number; answer: Answer };

type Scene = {
  app: App;
  lanes: Array<Lane & { startCents: number }>;
  user: User;
};

async function scene(dataDir: string, before?: () => void): Promise<Scene> {
  const env = { LOG_LEVEL: 'warn' };
  let app = await startApp(dataDir, { env });
  if (before) {
    await app.stop();
    before();
    app = await startApp(dataDir, { env });
  }
  const user = await signUp(app.url, 'storage');
  const lanes = [{ user, ...(await fundedCard(app.url, user, 300)) }];
  return { app, lanes, user };
}

type Outcome = { line: string; answers: Timed[] };

/**
 * Drives the scene: a burst, then `fillNow()` makes the disk full; writes must be refused with
 * storage_full, health must say so, reads must work (unless `readsStop`); then the function
 * `fillNow()` returned removes the filler, and writes must resume in the same process. Counts everything at the end.
 */
async function fullDiskDrill(
  dataDir: string,
  { app, lanes, user }: Scene,
  options: { fillNow: () => () => void; readsStop?: boolean; whileFull?: () => Promise<void> },
): Promise<Outcome> {
  const answers: Timed[] = [];
  const attempts: Attempt[] = [];
  let stop = false;
  const running = burst({ url: () => app.url, lanes, clients: 4, stop: () => stop, attempts, retryUntilFinal: true, maxWaitMs: 100, onAnswer: (answer) => answers.push({ at: Date.now(), answer }) });
  const ok = (from: number) => answers.filter((a) => a.at >= from && a.answer.status === 201).length;
  const lines: string[] = [];
  try {
    await waitFor('cash-outs before the disk fills', () => ok(0) >= 20);
    const filledAt = Date.now();
    const freeSpace = options.fillNow();
    await options.whileFull?.();
    await waitFor('a write refused with storage_full', () => answers.some((a) => a.at >= filledAt && errorCodeOf(a.answer) === 'storage_full'), 30_000);
    const refusedAt = answers.find((a) => a.at >= filledAt && errorCodeOf(a.answer) === 'storage_full')!.at;
    lines.push(`first storage_full ${refusedAt - filledAt} ms after the disk filled`);

    // While full: health says the database cannot write; reads work (or, PostgreSQL down, say 503).
    const health = await waitForHealth(app.url, (body) => body.writable === false && (!options.readsStop || body.db === 'down'), 10_000);
    if (options.readsStop) {
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ status: 'degraded', db: 'down', writable: false });
    } else {
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok', db: 'up', writable: false });
    }
    const reads: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      for (const route of ['/api/cards', '/api/dashboard', '/api/cashouts?limit=5']) reads.push((await user.request(app.url, 'GET', route)).status);
      await sleep(150);
    }
    if (options.readsStop) expect(reads.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    else expect(reads.filter((status) => status !== 200)).toEqual([]);
    const refusedWhileFull = answers.filter((a) => a.at >= refusedAt && a.answer.status === 503).length;
    lines.push(`health ${health.status} ${JSON.stringify(health.body)}; ${reads.length} reads (cards, dashboard, cash-outs): ${summarise(reads)}`);

    const freedAt = Date.now();
    freeSpace();
    await waitFor('a cash-out after space was freed', () => ok(freedAt) > 0, 60_000);
    const resumedMs = answers.find((a) => a.at >= freedAt && a.answer.status === 201)!.at - freedAt;
    const writable = await waitForHealth(app.url, (body) => body.writable === true, 20_000);
    expect(writable.status).toBe(200);
    await waitFor('more cash-outs', () => ok(freedAt) >= 20, 20_000);
    lines.push(`${refusedWhileFull} answers 503 while full; space freed: writes resume after ${resumedMs} ms, health writable again, same app (pid ${app.pid})`);
  } finally {
    stop = true;
    await running;
  }
  expect(app.alive()).toBe(true);
  await retryUnacknowledged(app.url, attempts);

  // Only successes and 503s that say when to come back; a refused write says storage_full.
  const statuses = answers.map((a) => a.answer.status);
  expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
  for (const { answer } of answers.filter((a) => a.answer.status === 503)) {
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    if (errorCodeOf(answer) === 'storage_full') {
      expect((answer.body as { error: { message: string } }).error.message).toBe(STORAGE_FULL_MESSAGE);
      expect(answer.headers.get('retry-after')).toBe('30');
    } else {
      expect(errorCodeOf(answer)).toBe('service_unavailable');
    }
  }
  expect(app.logs()).not.toContain('"msg":"unhandled error"');
  const counted = await count(dataDir, lanes, attempts);
  expect(counted.lost).toEqual([]);
  expect(counted.duplicated).toEqual([]);
  expect(counted.problems).toEqual([]);
  expect(counted.ledger.problems).toEqual([]);
  const byCode = summarise(answers.map((a) => `${a.answer.status}${errorCodeOf(a.answer) ? ` ${errorCodeOf(a.answer)}` : ''}`));
  lines.push(`answers: ${byCode}; ${counted.acknowledged} cash-outs acknowledged, 0 lost, 0 duplicated, ledger ${counted.ledger.journals} journals, 0 problems`);
  return { line: lines.join('; '), answers };
}

function summarise(values: Array<string | number>): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${n}× ${value}`).join(', ');
}

type Health = { status?: string; db?: string; writable?: boolean };

async function waitForHealth(url: string, condition: (body: Health) => boolean, timeoutMs: number): Promise<Answer> {
  let last: Answer | undefined;
  await waitFor(
    'the health answer',
    async () => {
      last = await http(url, 'GET', '/api/health').catch(() => undefined);
      return last !== undefined && condition(last.body as Health);
    },
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last: ${last?.status} ${last?.text}`);
  });
  return last!;
}

describe.skipIf(!asRoot)('a full disk', () => {
  let root: string;
  const apps: App[] = [];
  const dataDirs: string[] = [];
  const lines: string[] = [];
  beforeAll(async () => {
    root = freshDir('storage');
    await serverBundle();
  });
  afterAll(async () => {
    for (const dataDir of dataDirs) await cleanUp(dataDir, apps);
    for (const dir of mounts.reverse()) {
      try {
        execFileSync('umount', ['-l', dir]);
      } catch {
        // already gone
      }
    }
    rmSync(root, { recursive: true, force: true });
    removeServerBundle();
    console.info(`durability (full disk, 4 clients):\n  ${lines.join('\n  ')}`);
  });

  it('DATA_DIR on a small tmpfs: writes refused with storage_full before PostgreSQL runs out, reads go on, writes resume once space is freed', async () => {
    const disk = path.join(root, 'disk1');
    mountTmpfs(disk, 192);
    const dataDir = path.join(disk, 'data');
    dataDirs.push(dataDir);
    const setup = await scene(dataDir);
    apps.push(setup.app);
    const outcome = await fullDiskDrill(dataDir, setup, { fillNow: () => fill(disk, 40 * MB) });
    // The app refused the writes itself: PostgreSQL never ran out.
    expect(setup.app.logs()).toContain('Storage full: ');
    expect(readFileSync(embeddedPaths(dataDir).logFile, 'utf8')).not.toMatch(/PANIC|No space left/);
    lines.push(`1. DATA_DIR on a 192 MB tmpfs, filled to 40 MB free: ${outcome.line}`);
  });

  it("only the table files full (pg_wal elsewhere): PostgreSQL's own disk_full answers storage_full, reads go on, writes resume", async () => {
    const disk = path.join(root, 'disk2');
    mountTmpfs(disk, 96);
    const dataDir = path.join(disk, 'data');
    dataDirs.push(dataDir);
    const walDisk = path.join(root, 'wal2');
    mkdirSync(walDisk, { recursive: true, mode: 0o700 });
    const setup = await scene(dataDir, () => moveWal(dataDir, walDisk));
    apps.push(setup.app);
    const outcome = await fullDiskDrill(dataDir, setup, { fillNow: () => fill(disk, 0) });
    // PostgreSQL said it (ERROR, not PANIC), and the app logged its words and code.
    expect(setup.app.logs()).toMatch(/"database":\{"code":"53100","message":"could not extend file .*?: No space left on device","severity":"ERROR"/);
    expect(setup.app.logs()).not.toContain('Storage full: ');
    lines.push(`2. table files on a 96 MB tmpfs filled to 0 free, pg_wal on the big disk: ${outcome.line}`);
  });

  it('only pg_wal on a small tmpfs: writes refused with storage_full, reads go on, writes resume', async () => {
    const dataDir = path.join(root, 'data3');
    dataDirs.push(dataDir);
    const walDisk = path.join(root, 'wal3');
    mountTmpfs(walDisk, 160);
    const setup = await scene(dataDir, () => moveWal(dataDir, walDisk));
    apps.push(setup.app);
    const outcome = await fullDiskDrill(dataDir, setup, { fillNow: () => fill(walDisk, 40 * MB) });
    expect(readFileSync(embeddedPaths(dataDir).logFile, 'utf8')).not.toMatch(/PANIC|No space left/);
    lines.push(`3. pg_wal on a 160 MB tmpfs, filled to 40 MB free: ${outcome.line}`);
  });

  it('pg_wal filled around the app: PostgreSQL PANICs and cannot restart; writes answer storage_full, never 500; the app brings it back once space is freed', async () => {
    const dataDir = path.join(root, 'data4');
    dataDirs.push(dataDir);
    const walDisk = path.join(root, 'wal4');
    mountTmpfs(walDisk, 160);
    const setup = await scene(dataDir, () => moveWal(dataDir, walDisk));
    apps.push(setup.app);
    const before = postmasterPid(dataDir);
    const logFile = embeddedPaths(dataDir).logFile;
    const outcome = await fullDiskDrill(dataDir, setup, {
      fillNow: () => fill(walDisk, 1 * MB),
      // Another program writes WAL (here: logical messages of 1 MB) until PostgreSQL cannot go on.
      whileFull: async () => {
        const side = new pg.Client({ connectionString: embeddedUrl(dataDir) });
        side.on('error', () => {});
        await side.connect();
        try {
          for (let i = 0; i < 200; i += 1) await side.query(`select pg_logical_emit_message(false, 'filler', repeat('x', 1000000))`);
        } catch {
          // PostgreSQL went down
        } finally {
          await side.end().catch(() => {});
        }
        await waitFor('PostgreSQL to give up', () => /shutting down due to startup process failure/.test(readFileSync(logFile, 'utf8')), 30_000);
      },
      readsStop: true,
    });
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/PANIC: {2}could not write to file "pg_wal\/xlogtemp\.\d+": No space left on device/);
    expect(log).toMatch(/FATAL: {2}could not write to file "pg_wal\/xlogtemp\.\d+": No space left on device/);
    expect(postmasterPid(dataDir)).not.toBe(before);
    expect(existsSync(path.join(walDisk, 'filler'))).toBe(false);
    lines.push(`4. pg_wal on a 160 MB tmpfs filled to 1 MB free and WAL written around the app (PostgreSQL: PANIC, then recovery FATAL, shut down): ${outcome.line}`);
  });
});
