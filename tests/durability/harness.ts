// The durability suite's own tools (npm run test:durability): the real server bundled once and run
// as a child process on the embedded PostgreSQL it starts itself in its DATA_DIR, with its real
// settings (fsync on); users, cards and bursts of idempotent 2-cent cash-outs driven through the
// HTTP API as a browser would; and the count that matters after any crash: every acknowledged
// cash-out is in the database once, every other key is in it at most once, and the ledger holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { build } from 'esbuild';
import pg from 'pg';
import * as schema from '../../src/server/db/schema';
import type { Db } from '../../src/server/db/client';
import { embeddedPaths, embeddedUrl, isAlive, runningPostmaster } from '../../src/server/db/embedded-postgres';
import { checkLedger, type LedgerReport } from '../../src/server/ledger/check-ledger';
import { projectRoot } from '../../src/server/lib/paths';
import { freePort } from '../helpers/server-process';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The test card key (64 hex): any fixed key does, the data is thrown away. */
const CARD_DATA_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const PASSWORD = 'Sturdy-Pass-2026';
const MAX_LOG_CHARS = 400_000;

// ---- The server bundle ----------------------------------------------------------------------

let bundled: Promise<{ main: string; checkCli: string }> | undefined;
const bundleDir = path.join(projectRoot, 'node_modules', '.cache', 'payweave-durability', String(process.pid));

/**
 * Bundles the server and the ledger check from the current sources once per test process, as
 * `npm run build:server` does, into a private folder inside the project (dist/ may be stale or
 * being rebuilt by someone else; inside the project the bundle finds migrations and node_modules).
 */
export function serverBundle(): Promise<{ main: string; checkCli: string }> {
  bundled ??= (async () => {
    mkdirSync(bundleDir, { recursive: true });
    await build({
      entryPoints: [path.join(projectRoot, 'src/server/main.ts'), path.join(projectRoot, 'src/server/ledger/check-cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outdir: bundleDir,
      outExtension: { '.js': '.mjs' },
      logLevel: 'warning',
    });
    return { main: path.join(bundleDir, 'main.mjs'), checkCli: path.join(bundleDir, 'ledger', 'check-cli.mjs') };
  })();
  return bundled;
}

export function removeServerBundle(): void {
  rmSync(bundleDir, { recursive: true, force: true });
  bundled = undefined;
}

/** A fresh, empty directory for a DATA_DIR (or anything else), under the system's temp. */
export function freshDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `pw-dur-${label}-`));
}

// One way to find a free port, shared with the suites that start server processes.
export { freePort };

// ---- The app as a child process -------------------------------------------------------------

export type App = {
  pid: number;
  port: number;
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything it printed so far (bounded). */
  logs(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** SIGKILL: no shutdown at all, as in a crash. Its PostgreSQL, detached, keeps running. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit (its PostgreSQL is stopped in order). */
  stop(): Promise<void>;
};

export const APP_ENV = {
  DEMO_LATENCY_MS: '0',
  DEMO_DECLINE_RATE: '0',
  RATE_LIMIT_DISABLED: 'true',
  // After a kill -9, the payouts the dead process had claimed are taken over within a second.
  EFFECT_LEASE_MS: '1000',
  EFFECT_RETRY_BASE_MS: '100',
  LOG_LEVEL: 'info',
};

/** Spawns the app on `dataDir` without waiting for anything. */
export async function spawnApp(dataDir: string, options: { port?: number; env?: Record<string, string>; logFile?: string } = {}): Promise<App> {
  const { main } = await serverBundle();
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [main], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CARD_DATA_KEY,
      NODE_ENV: 'production',
      ...APP_ENV,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_LOG_CHARS);
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const waitForExit = async (signal: NodeJS.Signals, timeoutMs: number) => {
    if (!alive()) return;
    child.kill(signal);
    await Promise.race([exited, sleep(timeoutMs)]);
    if (alive()) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return {
    pid: child.pid ?? -1,
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    child,
    logs: () => output,
    exited,
    alive,
    kill: () => waitForExit('SIGKILL', 5_000),
    stop: () => waitForExit('SIGTERM', 20_000),
  };
}

/** Starts the app on `dataDir` and waits until /api/health answers 200. */
export async function startApp(dataDir: string, options: { port?: number; env?: Record<string, string>; timeoutMs?: number; logFile?: string } = {}): Promise<App> {
  const app = await spawnApp(dataDir, options);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (!app.alive()) throw new Error(`the app exited before it was ready:\n${app.logs()}`);
    try {
      const response = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return app;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await app.kill();
      throw new Error(`the app was not ready after ${options.timeoutMs ?? 60_000} ms:\n${app.logs()}`);
    }
    await sleep(50);
  }
}

/** The pid of the postmaster that holds `dataDir`'s cluster now, if any. */
export function postmasterPid(dataDir: string): number | undefined {
  return runningPostmaster(embeddedPaths(dataDir).clusterDir)?.pid;
}

/** The postmaster's pid as its lock file names it, alive or not. */
export function postmasterPidFromFile(dataDir: string): number | undefined {
  const file = path.join(embeddedPaths(dataDir).clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** kill -9 of the postmaster only (its backends notice and exit on their own). */
export function killPostmaster(dataDir: string): number {
  const pid = postmasterPid(dataDir);
  if (!pid) throw new Error(`no postmaster runs on ${dataDir}`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

/** kill -9 of the postmaster and every backend at once, as a power cut stops them (page cache aside). */
export function killPostgresGroup(dataDir: string): number {
  const pid = postmasterPid(dataDir);
  if (!pid) throw new Error(`no postmaster runs on ${dataDir}`);
  // Started detached, the postmaster leads its own process group, which its backends share.
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
  return pid;
}

/** Waits until nothing runs on `dataDir`'s cluster any more (after a kill -9, the backends linger a moment). */
export async function waitForNoPostgres(dataDir: string, pid: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) || postmasterPid(dataDir) !== undefined) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL ${pid} still runs on ${dataDir}`);
    await sleep(20);
  }
}

/** Stops whatever PostgreSQL is left on `dataDir` (a test that failed half-way) and removes the directory (and its `-calls.jsonl`). */
export async function cleanUp(dataDir: string, apps: Array<App | undefined> = []): Promise<void> {
  for (const app of apps) await app?.kill().catch(() => {});
  const pid = postmasterPid(dataDir);
  if (pid) {
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + 15_000;
    while (isAlive(pid) && Date.now() < deadline) await sleep(50);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-calls.jsonl`, { force: true });
}

// ---- HTTP -----------------------------------------------------------------------------------

export type Answer = { status: number; body: unknown; text: string; headers: Headers };

export async function http(url: string, method: string, route: string, options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Answer> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, body, text, headers: response.headers };
}

export const errorCodeOf = (answer: Answer): string | undefined => (answer.body as { error?: { code?: string } } | null)?.error?.code;

export type User = {
  email: string;
  cookie: string;
  userId: string;
  request(url: string, method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
};

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer;
}

/** Signs up a new user through the API. */
export async function signUp(url: string, label = 'durability'): Promise<User> {
  const email = `${label}-${randomUUID()}@example.com`;
  const answer = expectStatus(await http(url, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true } }), 201, 'sign-up');
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('pw_session=') && c.length > 'pw_session='.length);
  if (!cookie) throw new Error('sign-up set no session cookie');
  const user: User = {
    email,
    cookie,
    userId: '',
    request: (base, method, route, body, headers = {}) => http(base, method, route, { body, headers: { cookie, ...headers } }),
  };
  user.userId = (expectStatus(await user.request(url, 'GET', '/api/me'), 200, 'me').body as { id: string }).id;
  return user;
}

const COMPLETE_CHOICES = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' } as const;

/**
 * A card of about `dollars` made through the wizard's API (one card source, quote, completion),
 * and ACH saved with its details so that the card can be cashed out.
 */
export async function fundedCard(url: string, user: User, dollars: number): Promise<{ cardId: string; startCents: number }> {
  expectStatus(await user.request(url, 'POST', '/api/payout-methods', { method: 'ach', detail: '000123456789', routingNumber: '021000021' }), 201, 'payout method');
  const combine = expectStatus(await user.request(url, 'POST', '/api/combines', { baseInput: String(dollars), bufferInput: '0', bufferMode: 'percent' }), 201, 'combine').body as {
    id: string;
    funding: { suggestedChargeCents: { card: number } };
  };
  expectStatus(
    await user.request(url, 'POST', `/api/combines/${combine.id}/sources`, {
      type: 'credit',
      provider: 'visa',
      chargeCents: combine.funding.suggestedChargeCents.card,
      cardNumber: '4242424242424242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvv: '123',
    }),
    201,
    'source',
  );
  const quote = expectStatus(await user.request(url, 'POST', `/api/combines/${combine.id}/quote`, COMPLETE_CHOICES), 200, 'quote').body as {
    cardAmountCents: number;
    totalChargedCents: number;
    productFeeCents: number;
  };
  const done = expectStatus(
    await user.request(
      url,
      'POST',
      `/api/combines/${combine.id}/complete`,
      { ...COMPLETE_CHOICES, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } },
      { 'idempotency-key': randomUUID() },
    ),
    201,
    'completion',
  ).body as { card: { id: string; remainingAmountCents: number } };
  return { cardId: done.card.id, startCents: done.card.remainingAmountCents };
}

// ---- Bursts of idempotent cash-outs ---------------------------------------------------------

export const CASHOUT_CENTS = 2;

/** One cash-out as a client sent it, and what became of it. */
export type Attempt = {
  key: string;
  user: User;
  cardId: string;
  /** The first answer, if the client heard one. */
  first?: Answer;
  firstError?: string;
  /** The answer of the retry after the crash (same key, same body), for those not acknowledged. */
  final?: Answer;
  /** When the client last sent it, and when it heard its first answer (ms since the epoch). */
  sentAt?: number;
  answeredAt?: number;
};

export const cashoutIdOf = (answer: Answer | undefined): string | undefined => (answer?.body as { cashout?: { id?: string } } | null)?.cashout?.id;
export const acknowledged = (attempt: Attempt) => attempt.first?.status === 201;

export function sendCashout(url: string, attempt: Attempt): Promise<Answer> {
  return attempt.user.request(url, 'POST', '/api/cashouts', { cardId: attempt.cardId, amountCents: CASHOUT_CENTS, payoutMethod: 'ach' }, { 'idempotency-key': attempt.key });
}

export type Lane = { user: User; cardId: string };

/**
 * `clients` concurrent clients (spread over `lanes`, one user and card each), each sending one
 * 2-cent cash-out after another, with a new key each, until `stop()` says so or its request fails
 * at the network (the server died). Every attempt is recorded; answers other than 201 included.
 * `onAnswer` sees each answer (a client told 503 waits its Retry-After, capped at `maxWaitMs`, and
 * sends the same key again: the request is not over until its answer is final).
 */
export function burst(options: {
  url: () => string;
  lanes: Lane[];
  clients: number;
  stop: () => boolean;
  attempts: Attempt[];
  /** Keep a key until its answer is final (503 and 409 conflict are sent again); else one try per key. */
  retryUntilFinal?: boolean;
  maxWaitMs?: number;
  onAnswer?: (answer: Answer) => void;
}): Promise<void> {
  return Promise.all(
    Array.from({ length: options.clients }, async (_, index) => {
      const lane = options.lanes[index % options.lanes.length]!;
      while (!options.stop()) {
        const attempt: Attempt = { key: randomUUID(), user: lane.user, cardId: lane.cardId };
        options.attempts.push(attempt);
        for (;;) {
          try {
            attempt.sentAt = Date.now();
            const answer = await sendCashout(options.url(), attempt);
            attempt.answeredAt = Date.now();
            options.onAnswer?.(answer);
            attempt.first = answer;
            attempt.firstError = undefined;
            if (!options.retryUntilFinal || !isTransient(answer) || options.stop()) break;
            const retryAfter = Number(answer.headers.get('retry-after') ?? '1');
            await sleep(Math.min(retryAfter * 1000, options.maxWaitMs ?? 200));
          } catch (error) {
            attempt.firstError = (error as Error).message;
            if (!options.retryUntilFinal || options.stop()) return;
            await sleep(options.maxWaitMs ?? 200);
          }
        }
      }
    }),
  ).then(() => undefined);
}

export const isTransient = (answer: Answer) => answer.status === 503 || (answer.status === 409 && errorCodeOf(answer) === 'conflict');

/** Retries every attempt that was not acknowledged with its own key and body until its answer is final. */
export async function retryUnacknowledged(url: string, attempts: Attempt[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    attempts
      .filter((attempt) => !acknowledged(attempt))
      .map(async (attempt) => {
        for (;;) {
          try {
            const answer = await sendCashout(url, attempt);
            attempt.final = answer;
            if (!isTransient(answer)) return;
          } catch {
            // the server is not listening yet
          }
          if (Date.now() > deadline) throw new Error(`no final answer for key ${attempt.key}: ${attempt.final?.status} ${attempt.final?.text}`);
          await sleep(100);
        }
      }),
  );
}

// ---- Counting ---------------------------------------------------------------------------------

/** A client of the embedded database, as any tool connects (Unix socket, the generated password). */
export async function withDatabase<T>(dataDir: string, work: (db: Db, client: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: embeddedUrl(dataDir), max: 2 });
  pool.on('error', () => {});
  try {
    return await work(drizzle(pool, { schema }) as unknown as Db, pool);
  } finally {
    await pool.end();
  }
}

export type Count = {
  /** Attempts acknowledged (201) before the crash. */
  acknowledged: number;
  /** Of those not acknowledged: committed before the crash (their retry replayed the stored answer). */
  committedUnacknowledged: number;
  /** Of those not acknowledged: done by their retry (nothing had committed). */
  doneOnRetry: number;
  /** Acknowledged cash-outs missing from the database. */
  lost: string[];
  /** Keys or cash-outs found more than once, and cash-outs that no key accounts for. */
  duplicated: string[];
  /** Other problems: an answer that is not a cash-out, a replay that changed, a balance that disagrees. */
  problems: string[];
  ledger: LedgerReport;
};

/**
 * Sets what the clients were told against what the database holds: every acknowledged cash-out
 * is there, each key's cash-out once, nothing else, the cards' balances are their start less
 * 2 cents a cash-out, and the ledger check holds. `attempts` are every attempt since the cards
 * were made (all rounds), each with a first answer of 201 or a final answer after its retry.
 */
export async function count(dataDir: string, lanes: Array<Lane & { startCents: number }>, attempts: Attempt[]): Promise<Count> {
  const problems: string[] = [];
  const lost: string[] = [];
  const duplicated: string[] = [];
  const expected = new Map<string, string>(); // cash-out id → key
  let committedUnacknowledged = 0;
  let doneOnRetry = 0;
  for (const attempt of attempts) {
    const answer = acknowledged(attempt) ? attempt.first : attempt.final;
    const id = cashoutIdOf(answer);
    if (answer?.status !== 201 || !id) {
      problems.push(`key ${attempt.key}: ${answer?.status ?? attempt.firstError} ${answer?.text ?? ''}`.trim());
      continue;
    }
    if (expected.has(id)) duplicated.push(`cash-out ${id} answered for keys ${expected.get(id)} and ${attempt.key}`);
    expected.set(id, attempt.key);
    if (!acknowledged(attempt)) {
      if (attempt.final?.headers.get('idempotent-replayed') === 'true') committedUnacknowledged += 1;
      else doneOnRetry += 1;
    }
  }
  return withDatabase(dataDir, async (db, pool) => {
    const userIds = [...new Set(lanes.map((lane) => lane.user.userId))];
    const { rows } = await pool.query<{ id: string; card_id: string }>("select id::text, card_id::text from transactions where type = 'cashout' and user_id = any($1::uuid[])", [userIds]);
    const found = new Map<string, number>();
    for (const row of rows) found.set(row.id, (found.get(row.id) ?? 0) + 1);
    for (const attempt of attempts.filter(acknowledged)) {
      const id = cashoutIdOf(attempt.first)!;
      if (!found.has(id)) lost.push(`cash-out ${id} (key ${attempt.key}) was acknowledged and is not in the database`);
    }
    for (const [id] of found) if (!expected.has(id)) duplicated.push(`cash-out ${id} is in the database and no key's answer names it`);
    const keys = await pool.query<{ key: string; n: number }>('select key, count(*)::int as n from idempotency_keys where user_id = any($1::uuid[]) group by key having count(*) > 1', [userIds]);
    for (const row of keys.rows) duplicated.push(`key ${row.key} stored ${row.n} times`);
    for (const lane of lanes) {
      const cashouts = rows.filter((row) => row.card_id === lane.cardId).length;
      const card = await pool.query<{ remaining: string }>('select remaining_amount_cents::text as remaining from cards where id = $1', [lane.cardId]);
      const remaining = Number(card.rows[0]?.remaining);
      if (remaining !== lane.startCents - CASHOUT_CENTS * cashouts) problems.push(`card ${lane.cardId}: ${remaining} cents left after ${cashouts} cash-outs from ${lane.startCents}`);
    }
    const ledger = await checkLedger(db);
    return { acknowledged: attempts.filter(acknowledged).length, committedUnacknowledged, doneOnRetry, lost, duplicated, problems, ledger };
  });
}

/** Waits until `condition` holds, checking every 20 ms. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
  return Date.now() - started;
}

/** Every payout the drain sent went out once (money effects done, none pending or dead). */
export async function waitForPayouts(dataDir: string, timeoutMs = 30_000): Promise<{ done: number }> {
  return withDatabase(dataDir, async (_db, pool) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await pool.query<{ pending: number; dead: number; done: number }>(
        "select count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'dead')::int as dead, count(*) filter (where status = 'done')::int as done from money_effects",
      );
      const row = rows[0]!;
      if (row.dead > 0) throw new Error(`${row.dead} money effects gave up`);
      if (row.pending === 0) return { done: row.done };
      if (Date.now() > deadline) throw new Error(`${row.pending} money effects still pending after ${timeoutMs} ms`);
      await sleep(100);
    }
  });
}

/**
 * Money that left, from the demo payout provider's own append-only record (DEMO_ADAPTER_LOG, kept
 * across a kill -9): per cash-out of these users, the payouts that did the thing (done, or done
 * with the answer lost; a duplicate reference does nothing new). Each must be exactly 1.
 */
export async function payoutProblems(dataDir: string, callFile: string, lanes: Lane[]): Promise<{ payouts: number; problems: string[] }> {
  const effective = new Map<string, number>();
  if (existsSync(callFile)) {
    for (const line of readFileSync(callFile, 'utf8').split('\n')) {
      if (!line) continue;
      const call = JSON.parse(line) as { op: string; reference: string; outcome: string };
      if (call.op === 'payouts.send' && (call.outcome === 'done' || call.outcome === 'answer-lost')) effective.set(call.reference, (effective.get(call.reference) ?? 0) + 1);
    }
  }
  const problems: string[] = [];
  const ids = await withDatabase(dataDir, async (_db, pool) => {
    const { rows } = await pool.query<{ id: string }>("select id::text from transactions where type = 'cashout' and user_id = any($1::uuid[])", [[...new Set(lanes.map((lane) => lane.user.userId))]]);
    return rows.map((row) => row.id);
  });
  for (const id of ids) {
    const n = effective.get(`cashout:${id}`) ?? 0;
    if (n !== 1) problems.push(`cash-out ${id}: ${n} payouts`);
  }
  const owed = new Set(ids.map((id) => `cashout:${id}`));
  for (const reference of effective.keys()) if (reference.startsWith('cashout:') && !owed.has(reference)) problems.push(`payout ${reference} sent for no committed cash-out`);
  return { payouts: ids.length, problems };
}
