// The real server as a child process, for the suites that must cross a process boundary (scale
// out, crashes). It is bundled from the current sources with esbuild, the way `npm run
// build:server` does, into a private folder (dist/ may be stale or being rebuilt by someone else);
// the bundle lives inside the project so it finds package.json, migrations/ and node_modules.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../../src/server/lib/paths';
import { TEST_CARD_DATA_KEY } from './test-app';

const MAX_LOG_CHARS = 200_000;

let bundled: Promise<string> | undefined;

/** Bundles src/server/main.ts once per test process and returns the file to run. */
export function serverBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = path.join(projectRoot, 'node_modules', '.cache', 'payweave-test-server', String(process.pid));
    mkdirSync(dir, { recursive: true });
    const outfile = path.join(dir, 'main.mjs');
    await build({
      entryPoints: [path.join(projectRoot, 'src/server/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile,
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundled;
}

export function removeServerBundle(): void {
  rmSync(path.join(projectRoot, 'node_modules', '.cache', 'payweave-test-server', String(process.pid)), { recursive: true, force: true });
  bundled = undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (bounded). */
  logs(): string;
  /** SIGTERM and wait for the exit (graceful shutdown). */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown at all, as in a crash. */
  kill(): Promise<void>;
};

/**
 * Starts the server on `databaseUrl`, a database the test owns (in the integration project, one
 * made by createTestDatabase on the run's PostgreSQL, test-db.ts), never an embedded one of its
 * own: its DATA_DIR holds nothing.
 */
export async function startServer(options: { databaseUrl: string; port?: number; env?: Record<string, string>; readyTimeoutMs?: number }): Promise<ServerProcess> {
  const entry = await serverBundle();
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [entry], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: path.join(projectRoot, 'node_modules', '.cache', 'payweave-test-server', 'data-unused'),
      DEMO_LATENCY_MS: '0',
      DEMO_DECLINE_RATE: '0',
      CARD_DATA_KEY: TEST_CARD_DATA_KEY,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_LOG_CHARS);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready on ${url} after ${options.readyTimeoutMs ?? 30_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const waitForExit = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return {
    port,
    url,
    child,
    logs: () => output,
    stop: () => waitForExit('SIGTERM'),
    kill: () => waitForExit('SIGKILL'),
  };
}

// ---- A small HTTP client that keeps a session cookie, over fetch ----------------------------------

export type HttpAnswer = { status: number; body: unknown; text: string; headers: Headers };

export type HttpUser = {
  email: string;
  cookie: string;
  request(baseUrl: string, method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
};

export async function http(baseUrl: string, method: string, url: string, options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (e.g. CSV)
  }
  return { status: response.status, body, text, headers: response.headers };
}

export function sessionCookieOf(headers: Headers): string | undefined {
  const cookies = headers.getSetCookie();
  return cookies.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('pw_session=') && c.length > 'pw_session='.length);
}

/** Registers through `baseUrl`. `forwardedFor` gives each user its own client address (TRUST_PROXY). */
export async function registerOver(baseUrl: string, email: string, password: string, forwardedFor?: string): Promise<HttpUser> {
  const answer = await http(baseUrl, 'POST', '/api/auth/register', {
    body: { email, password, confirmPassword: password, acceptTerms: true },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  const cookie = sessionCookieOf(answer.headers);
  if (answer.status !== 201 || !cookie) throw new Error(`register ${answer.status}: ${answer.text}`);
  return {
    email,
    cookie,
    request: (base, method, url, body, headers = {}) => http(base, method, url, { body, headers: { cookie, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}), ...headers } }),
  };
}
