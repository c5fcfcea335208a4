// kill -9 of the app in the middle of a burst of acknowledged money operations: 8 concurrent
// clients of idempotent 2-cent cash-outs, killed at a random moment, 5 rounds on the same DATA_DIR.
// Rounds 1-3 kill only the app (its PostgreSQL, detached, keeps running and is adopted by the next
// start); rounds 4-5 kill the app and every PostgreSQL process at the same instant, so that the
// next start goes through crash recovery from the WAL. After each restart every request that was
// not acknowledged is sent again with its own Idempotency-Key, and the count must be exact.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acknowledged,
  burst,
  cleanUp,
  count,
  freshDir,
  fundedCard,
  killPostgresGroup,
  payoutProblems,
  removeServerBundle,
  retryUnacknowledged,
  serverBundle,
  signUp,
  sleep,
  startApp,
  waitFor,
  waitForNoPostgres,
  waitForPayouts,
  type App,
  type Attempt,
  type Lane,
} from './harness';

const ROUNDS = 5;
const CLIENTS = 8;

describe('kill -9 of the app mid-burst', () => {
  let dataDir: string;
  let app: App | undefined;
  beforeAll(async () => {
    dataDir = freshDir('kill-app');
    await serverBundle();
  });
  afterAll(async () => {
    await cleanUp(dataDir, [app]);
    removeServerBundle();
  });

  it(`${ROUNDS} rounds: nothing acknowledged is lost, nothing is done twice, the ledger holds`, async () => {
    const callFile = path.join(`${dataDir}-calls.jsonl`);
    const env = { DEMO_ADAPTER_LOG: callFile };
    app = await startApp(dataDir, { env });
    const port = app.port;
    const lanes: Array<Lane & { startCents: number }> = [];
    for (let i = 0; i < 2; i += 1) {
      const user = await signUp(app.url, `kill-app-${i}`);
      lanes.push({ user, ...(await fundedCard(app.url, user, 300)) });
    }
    const attempts: Attempt[] = [];
    const lines: string[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const roundAttempts: Attempt[] = [];
        let stop = false;
        const current = app;
        const running = burst({ url: () => current.url, lanes, clients: CLIENTS, stop: () => stop, attempts: roundAttempts });
        // Killed at a moment no request chose: after 20 to 60 acknowledged cash-outs, a few ms on.
        const target = 20 + Math.floor(Math.random() * 40);
        await waitFor('acknowledged cash-outs', () => roundAttempts.filter(acknowledged).length >= target);
        await sleep(Math.random() * 20);
        const withPostgres = round > 3;
        if (withPostgres) {
          current.child.kill('SIGKILL');
          const postmaster = killPostgresGroup(dataDir);
          await current.exited;
          await waitForNoPostgres(dataDir, postmaster);
        } else {
          await current.kill();
        }
        stop = true;
        await running;
        const inFlight = roundAttempts.filter((attempt) => !acknowledged(attempt)).length;

        const restartStarted = Date.now();
        app = await startApp(dataDir, { port, env });
        const restartMs = Date.now() - restartStarted;
        await retryUnacknowledged(app.url, roundAttempts);
        attempts.push(...roundAttempts);

        const counted = await count(dataDir, lanes, attempts);
        expect(counted.lost).toEqual([]);
        expect(counted.duplicated).toEqual([]);
        expect(counted.problems).toEqual([]);
        expect(counted.ledger.problems).toEqual([]);
        const replayed = roundAttempts.filter((a) => !acknowledged(a) && a.final?.headers.get('idempotent-replayed') === 'true').length;
        lines.push(
          `round ${round} (${withPostgres ? 'app and PostgreSQL' : 'app'} killed): ${roundAttempts.filter(acknowledged).length} acknowledged, ${inFlight} in flight ` +
            `(${replayed} had committed, ${inFlight - replayed} done on retry), restart ${restartMs} ms; 0 lost, 0 duplicated`,
        );
      }
      const payouts = await waitForPayouts(dataDir);
      const paid = await payoutProblems(dataDir, callFile, lanes);
      expect(paid.problems).toEqual([]);
      const total = await count(dataDir, lanes, attempts);
      console.info(
        `durability (kill -9 of the app, ${CLIENTS} clients):\n  ${lines.join('\n  ')}\n  in all: ${attempts.length} cash-outs, ${total.acknowledged} acknowledged before a kill, ` +
          `${total.committedUnacknowledged} committed but unanswered, ${total.doneOnRetry} done on retry; ${paid.payouts} paid out once each (${payouts.done} effects done); ` +
          `ledger: ${total.ledger.journals} journals, ${total.ledger.cards} cards, ${total.ledger.problems.length} problems`,
      );
    } finally {
      rmSync(callFile, { force: true });
    }
  });
});
