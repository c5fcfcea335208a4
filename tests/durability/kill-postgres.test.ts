// kill -9 of the app's own PostgreSQL (the postmaster named by DATA_DIR/postgres/postmaster.pid) in
// the middle of a burst of 8 concurrent clients of idempotent 2-cent cash-outs, three times. The
// app is not restarted: its watchdog brings PostgreSQL back through crash recovery, and meanwhile
// every request answers 503 with Retry-After (never 500). Clients do as told: wait, then send the
// same request with the same key until the answer is final. Nothing acknowledged may be lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  burst,
  cleanUp,
  count,
  errorCodeOf,
  freshDir,
  fundedCard,
  http,
  killPostmaster,
  payoutProblems,
  postmasterPid,
  removeServerBundle,
  serverBundle,
  signUp,
  sleep,
  startApp,
  waitFor,
  waitForPayouts,
  type Answer,
  type App,
  type Attempt,
  type Lane,
} from './harness';

const KILLS = 3;
const CLIENTS = 8;

describe('kill -9 of the embedded PostgreSQL mid-burst', () => {
  let dataDir: string;
  let app: App | undefined;
  beforeAll(async () => {
    dataDir = freshDir('kill-pg');
    await serverBundle();
  });
  afterAll(async () => {
    await cleanUp(dataDir, [app]);
    removeServerBundle();
  });

  it('the app answers 503 with Retry-After meanwhile, brings PostgreSQL back itself, and loses nothing', async () => {
    const callFile = `${dataDir}-calls.jsonl`;
    app = await startApp(dataDir, { env: { DEMO_ADAPTER_LOG: callFile } });
    const url = app.url;
    const lanes: Array<Lane & { startCents: number }> = [];
    for (let i = 0; i < 2; i += 1) {
      const user = await signUp(url, `kill-pg-${i}`);
      lanes.push({ user, ...(await fundedCard(url, user, 300)) });
    }
    const answers: Answer[] = [];
    const attempts: Attempt[] = [];
    let stop = false;
    const running = burst({ url: () => url, lanes, clients: CLIENTS, stop: () => stop, attempts, retryUntilFinal: true, maxWaitMs: 100, onAnswer: (a) => answers.push(a) });
    const lines: string[] = [];
    try {
      for (let kill = 1; kill <= KILLS; kill += 1) {
        const okBefore = answers.filter((a) => a.status === 201).length;
        const refusedBefore = answers.filter((a) => a.status === 503).length;
        await waitFor('cash-outs before the kill', () => answers.filter((a) => a.status === 201).length >= okBefore + 30);
        await sleep(Math.random() * 20);
        const killedAt = Date.now();
        const old = killPostmaster(dataDir);
        // Back: a new postmaster holds the cluster, and a cash-out sent after that succeeds.
        await waitFor('a new postmaster', () => {
          const pid = postmasterPid(dataDir);
          return pid !== undefined && pid !== old;
        }, 60_000);
        const restartedMs = Date.now() - killedAt;
        const seen = answers.length;
        await waitFor('a cash-out after PostgreSQL is back', () => answers.slice(seen).some((a) => a.status === 201), 60_000);
        const backMs = Date.now() - killedAt;
        const refused = answers.filter((a) => a.status === 503).length - refusedBefore;
        const pid = postmasterPid(dataDir);
        expect(app.alive()).toBe(true);
        lines.push(`kill ${kill}: postmaster ${old} killed; restarted by the app after ${restartedMs} ms (postmaster ${pid}); ${refused} answers 503 meanwhile; cash-outs succeed again after ${backMs} ms; same app (pid ${app.pid})`);
      }
      await sleep(300);
    } finally {
      stop = true;
      await running;
    }

    // Every answer was a success or a 503 that says when to come back: no 500, nothing else.
    const statuses = new Map<number, number>();
    for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const refusals = answers.filter((a) => a.status === 503);
    expect([...statuses.keys()].filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(errorCodeOf(refusal)).toBe('service_unavailable');
    }
    // Every client's last request got its final answer from the same process.
    expect(attempts.filter((a) => a.first?.status !== 201)).toEqual([]);
    expect((await http(url, 'GET', '/api/health')).status).toBe(200);
    expect(app.alive()).toBe(true);
    expect(app.logs()).not.toContain('"msg":"unhandled error"');

    const counted = await count(dataDir, lanes, attempts);
    expect(counted.lost).toEqual([]);
    expect(counted.duplicated).toEqual([]);
    expect(counted.problems).toEqual([]);
    expect(counted.ledger.problems).toEqual([]);
    await waitForPayouts(dataDir);
    const paid = await payoutProblems(dataDir, callFile, lanes);
    expect(paid.problems).toEqual([]);
    const replays = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === 'true').length;
    console.info(
      `durability (kill -9 of PostgreSQL, ${CLIENTS} clients):\n  ${lines.join('\n  ')}\n  in all: ${attempts.length} cash-outs acknowledged, ${refusals.length} answers 503 with Retry-After, 0 other; ` +
        `${replays} retries replayed a commit whose answer was lost; 0 lost, 0 duplicated; ${paid.payouts} paid out once each; ledger: ${counted.ledger.journals} journals, 0 problems`,
    );
  });
});
