// Child processes of the benchmark: the production server (dist/server/main.mjs, or the other
// version's build in its worktree), the bare Fastify ceiling (bench/bare-server.mjs), pgbench, and
// git and npm when another version is built. Ports come from 4100-4199, a range kept
// free of the dev server (3000) and the end-to-end run (3100).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAX_LOG_CHARS = 100_000;

const reserved = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Ports that fetch() refuses to connect to (the WHATWG "bad ports" list; in our range: 4190,
 * ManageSieve). A server there starts fine and is never reached: "fetch failed (bad port)".
 */
const FETCH_BLOCKED_PORTS = new Set([4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

/** A free port in 4100-4199 (BENCH_PORT_BASE moves the range), starting at a pid-dependent offset. */
export async function freeBenchPort(): Promise<number> {
  const base = Number(process.env.BENCH_PORT_BASE ?? 4100);
  const start = process.pid % 100;
  for (let i = 0; i < 100; i += 1) {
    const port = base + ((start + i) % 100);
    if (reserved.has(port) || FETCH_BLOCKED_PORTS.has(port)) continue;
    if (await canListen(port)) {
      reserved.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${base}-${base + 99}`);
}

export type Child = { url: string; port: number; child: ChildProcess; logs(): string; stop(): Promise<void> };

const running = new Set<ChildProcess>();

/** Kills every child still running (on failure or Ctrl-C), with whatever it started itself. */
export function killChildren(): void {
  for (const child of running) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    // Each child leads a process group of its own (`detached`), so that npm's and vite's children go with it.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
}

async function startHttpChild(command: string, args: string[], env: NodeJS.ProcessEnv, port: number, readyPath: string, cwd = projectRoot): Promise<Child> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_LOG_CHARS);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => running.delete(child), () => {});
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let lastAnswer = 'no answer';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.at(-1)} exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) break;
      lastAnswer = `${response.status} ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      // not listening yet (kept for the message if it never does)
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      lastAnswer = cause ? `${(error as Error).message} (${cause.code ?? cause.message})` : (error as Error).message;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.at(-1)} not ready on ${url} after 60 s (last ${readyPath}: ${lastAnswer}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    child,
    logs: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

// BENCH_SERVER_ENTRY: another bundle of the server (e.g. a before/after comparison of a change).
export const SERVER_ENTRY = path.resolve(process.env.BENCH_SERVER_ENTRY ?? path.join(projectRoot, 'dist', 'server', 'main.mjs'));

export type AppServer = Child & { dataDir: string };

/**
 * The production build on `databaseUrl`: demo delays 0, no random declines, rate limits off.
 * `entry` and `cwd`: another version's bundle, run from its own worktree (its migrations).
 */
export async function startAppServer(databaseUrl: string, extraEnv: Record<string, string> = {}, build: { entry: string; cwd: string } = { entry: SERVER_ENTRY, cwd: projectRoot }): Promise<AppServer> {
  const port = await freeBenchPort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payweave-bench-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    DEMO_LATENCY_MS: '0',
    DEMO_DECLINE_RATE: '0',
    RATE_LIMIT_DISABLED: 'true',
    CARD_DATA_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
    ...extraEnv,
  };
  // Profiling the server: e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = await startHttpChild(process.execPath, [...nodeArgs, build.entry], env, port, '/api/health', build.cwd);
  return {
    ...child,
    dataDir,
    async stop() {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The framework's ceiling: a Fastify server with one route answering a small JSON object. */
export async function startBareServer(): Promise<Child> {
  const port = await freeBenchPort();
  return startHttpChild(process.execPath, [path.join(projectRoot, 'bench', 'bare-server.mjs')], { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: String(port) }, port, '/bare');
}

export type CommandResult = { code: number; stdout: string; stderr: string };

export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      running.delete(child);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}
