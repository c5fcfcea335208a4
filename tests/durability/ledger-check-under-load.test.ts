// `npm run ledger:check` while the app serves a burst of cash-outs: it connects as a client of the
// running embedded server (one read-only snapshot), finds the ledger whole, and disturbs nothing.
// Then a kill -9 of the app mid-burst; the check again on the orphaned PostgreSQL (no app); the
// restart adopts that PostgreSQL; every unanswered request is retried with its key; nothing lost.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/lib/paths';
import {
  acknowledged,
  burst,
  cleanUp,
  count,
  freshDir,
  fundedCard,
  postmasterPid,
  removeServerBundle,
  retryUnacknowledged,
  serverBundle,
  signUp,
  startApp,
  waitFor,
  type App,
  type Attempt,
  type Lane,
} from './harness';

/** `npm run ledger:check` on `dataDir`: its exit code, output and time. */
function ledgerCheck(dataDir: string): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'ledger:check'], { cwd: projectRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code) => resolve({ code, output: output.trim(), ms: Date.now() - started }));
  });
}

describe('npm run ledger:check during load, then kill -9 of the app', () => {
  let dataDir: string;
  let app: App | undefined;
  beforeAll(async () => {
    dataDir = freshDir('ledger-check');
    await serverBundle();
  });
  afterAll(async () => {
    await cleanUp(dataDir, [app]);
    removeServerBundle();
  });

  it('the check passes while cash-outs commit, and after the kill nothing is lost', async () => {
    app = await startApp(dataDir);
    const port = app.port;
    const lanes: Array<Lane & { startCents: number }> = [];
    for (let i = 0; i < 2; i += 1) {
      const user = await signUp(app.url, `ledger-check-${i}`);
      lanes.push({ user, ...(await fundedCard(app.url, user, 300)) });
    }
    const postmaster = postmasterPid(dataDir);
    const attempts: Attempt[] = [];
    let stop = false;
    const current = app;
    const running = burst({ url: () => current.url, lanes, clients: 8, stop: () => stop, attempts });
    const lines: string[] = [];
    try {
      for (let run = 1; run <= 2; run += 1) {
        const before = attempts.filter(acknowledged).length;
        const checked = await ledgerCheck(dataDir);
        const during = attempts.filter(acknowledged).length - before;
        expect(checked.code, checked.output).toBe(0);
        expect(checked.output).toMatch(/^ledger:check ok: \d+ journals balance, 2 card balances match their ledgers$/m);
        expect(during).toBeGreaterThan(0);
        lines.push(`during load (${during} cash-outs acknowledged while it ran, ${checked.ms} ms): ${checked.output.split('\n').pop()}`);
      }
      // The check neither started nor stopped anything: the same PostgreSQL, the same app.
      expect(postmasterPid(dataDir)).toBe(postmaster);
      expect(current.alive()).toBe(true);
      await waitFor('more cash-outs', () => attempts.filter(acknowledged).length >= 50);
      await current.kill();
    } finally {
      stop = true;
      await running;
    }
    const inFlight = attempts.filter((a) => !acknowledged(a)).length;

    // No app: PostgreSQL runs on, orphaned; the check connects to it and leaves it running.
    const orphaned = await ledgerCheck(dataDir);
    expect(orphaned.code, orphaned.output).toBe(0);
    expect(postmasterPid(dataDir)).toBe(postmaster);
    lines.push(`after kill -9 of the app, on its orphaned PostgreSQL: ${orphaned.output.split('\n').pop()}`);

    app = await startApp(dataDir, { port });
    expect(app.logs()).toContain(`Found the embedded PostgreSQL (pid ${postmaster})`);
    await retryUnacknowledged(app.url, attempts);
    const counted = await count(dataDir, lanes, attempts);
    expect(counted.lost).toEqual([]);
    expect(counted.duplicated).toEqual([]);
    expect(counted.problems).toEqual([]);
    expect(counted.ledger.problems).toEqual([]);
    const after = await ledgerCheck(dataDir);
    expect(after.code, after.output).toBe(0);
    lines.push(
      `after the restart: ${counted.acknowledged} acknowledged, ${inFlight} in flight at the kill (${counted.committedUnacknowledged} had committed, ${counted.doneOnRetry} done on retry); 0 lost, 0 duplicated; ${after.output.split('\n').pop()}`,
    );
    console.info(`durability (ledger:check under load, 8 clients):\n  ${lines.join('\n  ')}`);
  });
});
