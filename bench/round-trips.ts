// Counts the database round trips of one request of each benchmark scenario (the usual cost of a
// write path: each statement is a network round trip and, inside a transaction, time locks are
// held). Runs the app in-process on a scratch PostgreSQL database with every pg query recorded.
//
//   npx tsx bench/round-trips.ts            counts per scenario
//   npx tsx bench/round-trips.ts --sql      and the statements themselves
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { NOTIFY_BATCH_MS } from '../src/server/db/change-bus';
import { openDatabase } from '../src/server/db/client';
import { completeDraft, prepareDraft, register, saveAchPayoutMethod, upgradeToPremiumPlus, BENCH_PASSWORD, COMPLETE_CHOICES, call } from './lib/api';
import { createDatabase, dropCreatedDatabases, isPostgresReachable, queryDatabase } from './lib/postgres';
import { freeBenchPort } from './lib/processes';

const showSql = process.argv.includes('--sql');
let recording: string[] | null = null;
const originalQuery = pg.Client.prototype.query;
// Every statement of the app goes through a pooled pg.Client (drizzle's node-postgres driver).
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  recording?.push(typeof first === 'string' ? first : (first?.text ?? '?'));
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

async function main() {
  if (!(await isPostgresReachable())) throw new Error('PostgreSQL is not reachable');
  const url = await createDatabase(`payweave_roundtrips_${process.pid}`);
  const port = await freeBenchPort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    DATA_DIR: path.join(os.tmpdir(), 'payweave-roundtrips'),
    DEMO_LATENCY_MS: '0',
    DEMO_DECLINE_RATE: '0',
    RATE_LIMIT_DISABLED: 'true',
    CARD_DATA_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ databaseUrl: url, dataDir: config.dataDir, poolSize: 4 });
  const app = await buildApp({ config, database, serveWeb: false });
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await queryDatabase(url, 'update system_promos set first_100_promo_claimed = limit_count');
    const user = await register(base, `rt-${process.pid}@example.com`);
    await upgradeToPremiumPlus(base, user);
    await saveAchPayoutMethod(base, user);
    const cardId = await completeDraft(base, await prepareDraft(base, user, 1000));
    const draft = await prepareDraft(base, user, 100);

    const measure = async (name: string, work: () => Promise<{ status: number }>) => {
      // The previous request's batched NOTIFY (db/change-bus.ts) goes out a few ms after it: let it
      // go before recording, and count this request's own separately (it is sent after the answer).
      await new Promise((resolve) => setTimeout(resolve, 4 * NOTIFY_BATCH_MS));
      recording = [];
      const answer = await work();
      await new Promise((resolve) => setTimeout(resolve, 4 * NOTIFY_BATCH_MS));
      const all = recording;
      recording = null;
      const notifies = all.filter((s) => s.includes('pg_notify')).length;
      const statements = all.filter((s) => !s.includes('pg_notify'));
      const inTx = statements.filter((s) => !/^(begin|commit|rollback)$/i.test(s.trim())).length;
      const transaction = statements.length > inTx ? ' + begin/commit' : ', no explicit transaction';
      const after = notifies > 0 ? `; then ${notifies} batched NOTIFY to the other instances` : '';
      console.log(`${name}: HTTP ${answer.status}, ${statements.length} round trips (${inTx} statements${transaction})${after}`);
      if (showSql) for (const s of statements) console.log(`    ${s.replace(/\s+/g, ' ').slice(0, 220)}`);
    };
    await measure('sign in', () => call(base, 'POST', '/api/auth/login', { body: { email: user.email, password: BENCH_PASSWORD } }));
    await measure('list cards', () => call(base, 'GET', '/api/cards', { cookie: user.cookie }));
    await measure('complete a combine (2 sources)', () =>
      call(base, 'POST', `/api/combines/${draft.combineId}/complete`, {
        cookie: user.cookie,
        headers: { 'idempotency-key': randomBytes(8).toString('hex') },
        body: { ...COMPLETE_CHOICES, expected: draft.expected },
      }),
    );
    const cashOut = () =>
      call(base, 'POST', '/api/cashouts', {
        cookie: user.cookie,
        headers: { 'idempotency-key': randomBytes(8).toString('hex') },
        body: { cardId, amountCents: 100, payoutMethod: 'ach' },
      });
    await measure('cash out (first: reads the user)', cashOut);
    await measure('cash out (again: the user from the read cache)', cashOut);
    const listCards = () => call(base, 'GET', '/api/cards', { cookie: user.cookie });
    await measure('list cards (after the cash-out: read again)', listCards);
    await measure('list cards (again: from the read cache)', listCards);
  } finally {
    await app.close();
    await database.close();
    await dropCreatedDatabases();
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  await dropCreatedDatabases();
  process.exit(1);
});
