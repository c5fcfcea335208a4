// A second app started on a DATA_DIR that a running app holds is refused at once (under 2 s), with
// a message that names the running process, and changes nothing: the first keeps serving the same
// data, its PostgreSQL untouched. Twice: as usual (the first app's pid file names it), and with the
// pid file gone, where PostgreSQL's advisory lock, held by the first app's own connection, decides.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  burst,
  cleanUp,
  count,
  freshDir,
  fundedCard,
  http,
  postmasterPid,
  removeServerBundle,
  sendCashout,
  serverBundle,
  signUp,
  spawnApp,
  startApp,
  withDatabase,
  type App,
  type Attempt,
  type Lane,
} from './harness';

/** Every table's rows, hashed: equal snapshots, equal data. */
async function snapshot(dataDir: string): Promise<Record<string, string>> {
  return withDatabase(dataDir, async (_db, pool) => {
    const tables = await pool.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public' order by 1");
    const out: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const { rows } = await pool.query<{ n: number; digest: string | null }>(`select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as digest from "${name}" t`);
      out[name] = `${rows[0]!.n} ${rows[0]!.digest ?? ''}`;
    }
    return out;
  });
}

/** Starts a second app on `dataDir` and waits for it to give up; its time, exit code and words. */
async function secondStart(dataDir: string): Promise<{ ms: number; code: number | null; output: string; second: App }> {
  const started = Date.now();
  const second = await spawnApp(dataDir);
  const exit = await Promise.race([second.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000))]);
  const ms = Date.now() - started;
  if (!exit) await second.kill();
  return { ms, code: exit?.code ?? null, output: second.logs(), second };
}

describe('a second start on the same DATA_DIR', () => {
  let dataDir: string;
  let first: App | undefined;
  let second: App | undefined;
  beforeAll(async () => {
    dataDir = freshDir('second');
    await serverBundle();
  });
  afterAll(async () => {
    await cleanUp(dataDir, [first, second]);
    removeServerBundle();
  });

  it('is refused in under 2 s, naming the running process, and changes nothing', async () => {
    first = await startApp(dataDir);
    const url = first.url;
    const user = await signUp(url, 'second');
    const lane: Lane & { startCents: number } = { user, ...(await fundedCard(url, user, 100)) };
    const attempts: Attempt[] = [];
    for (let i = 0; i < 5; i += 1) {
      const attempt: Attempt = { key: randomUUID(), user, cardId: lane.cardId };
      attempt.first = await sendCashout(url, attempt);
      attempts.push(attempt);
    }
    const pidFile = path.join(dataDir, 'payweave.pid');
    const files = () => ({
      pidFile: existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '(none)',
      password: readFileSync(path.join(dataDir, 'postgres-password'), 'utf8'),
      postmaster: postmasterPid(dataDir),
    });
    const lines: string[] = [];

    for (const variant of ['the pid file names the first app', 'no pid file: the advisory lock decides'] as const) {
      if (variant !== 'the pid file names the first app') rmSync(pidFile);
      const filesBefore = files();
      const dataBefore = await snapshot(dataDir);
      const refused = await secondStart(dataDir);
      second = refused.second;
      expect(refused.code, refused.output).toBe(1);
      expect(refused.ms, refused.output).toBeLessThan(2_000);
      expect(refused.output).toContain(`PayWeave is already running on ${path.resolve(dataDir)}`);
      expect(refused.output).toContain(`process ${first.pid}`);
      // Nothing changed: the same files, the same PostgreSQL, the same rows.
      expect(files()).toEqual(filesBefore);
      expect(await snapshot(dataDir)).toEqual(dataBefore);
      expect(first.alive()).toBe(true);
      expect((await http(url, 'GET', '/api/health')).status).toBe(200);
      const message = /"msg":"(PayWeave is already running[^"]*)"/.exec(refused.output)?.[1] ?? refused.output.trim().split('\n').pop();
      lines.push(`${variant}: refused in ${refused.ms} ms, exit 1: ${message}`);
      if (variant !== 'the pid file names the first app') writeFileSync(pidFile, filesBefore.pidFile === '(none)' ? `${first.pid}\n` : filesBefore.pidFile);
    }

    // Refused while the first serves a burst of cash-outs: the burst does not notice.
    let stop = false;
    const during: Attempt[] = [];
    const running = burst({ url: () => url, lanes: [lane], clients: 4, stop: () => stop, attempts: during });
    const refused = await secondStart(dataDir);
    second = refused.second;
    stop = true;
    await running;
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(`process ${first.pid}`);
    // Node loads the whole server before it looks; on 2 busy cores that alone can take 2 s.
    expect(refused.ms, refused.output).toBeLessThan(5_000);
    expect(during.filter((a) => a.first?.status !== 201).map((a) => `${a.first?.status} ${a.first?.text ?? a.firstError}`)).toEqual([]);
    attempts.push(...during);
    const counted = await count(dataDir, [lane], attempts);
    expect(counted.lost).toEqual([]);
    expect(counted.duplicated).toEqual([]);
    expect(counted.problems).toEqual([]);
    expect(counted.ledger.problems).toEqual([]);
    lines.push(`during a burst of 4 clients: refused in ${refused.ms} ms; ${during.length} cash-outs meanwhile, all 201; the ledger holds`);
    console.info(`durability (second start):\n  ${lines.join('\n  ')}`);
  });
});
