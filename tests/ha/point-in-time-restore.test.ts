// `npm run test:ha` (decision 180): one point-in-time restore of the Patroni cluster with
// pgBackRest, the recipe of docs/operations.md. The cluster's nodes archive their WAL with
// `pgbackrest archive-push` (Patroni's archive_mode and archive_command) into a repository in the
// cluster's folder; a stanza is created, `pgbackrest check` proves archiving works, and a full
// backup is taken. Then clients make acknowledged cash-outs, purchases and card creations through
// the app (tests/ha/traffic.ts), the moment is noted, and someone deletes every cash-out by
// accident. The repository is restored with `--type=time` to that moment into a new data
// directory, started as a standalone PostgreSQL 15: every request acknowledged before the DELETE
// is there, the DELETE is not, and the ledger is the one checked just before it.
import { readFileSync } from 'node:fs';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { checkLedger, type LedgerReport } from '../../src/server/ledger/check-ledger';
import { waitForDrain } from '../helpers/money-count';
import { removeServerBundle, startServer, type ServerProcess } from '../helpers/server-process';
import { missingTools, PatroniCluster, type Standalone } from './cluster';
import { prepareClient, startStream, type Client, type MoneyRequest } from './traffic';

const CLIENTS = 2;
const TRAFFIC_MS = 3_000;
const DATABASE = 'payweave';

const missing = missingTools({ archive: true });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ledgerOf(url: string, drain: boolean): Promise<LedgerReport> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  try {
    const db = drizzle(pool) as unknown as Db;
    if (drain) await waitForDrain(db, 60_000);
    return await checkLedger(db);
  } finally {
    await pool.end();
  }
}

describe('point-in-time recovery with pgBackRest: an accidental DELETE undone', () => {
  let cluster: PatroniCluster;
  let server: ServerProcess | undefined;
  let clients: Client[] = [];
  const figures: string[] = [];
  const timed = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await step();
    figures.push(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };

  beforeAll(async () => {
    expect(missing, `test:ha needs ${missing.join(', ')} (.ci/run installs patroni, etcd-server, haproxy and pgbackrest with apt-get)`).toEqual([]);
    cluster = await timed('cluster of 3 up, archiving with pgBackRest', () => PatroniCluster.start({ archive: true }));
    const leader = (await cluster.leader())!;
    await timed('stanza-create and check (a WAL switch archived)', async () => {
      await cluster.pgbackrest(leader, ['stanza-create']);
      await cluster.pgbackrest(leader, ['check']);
    });
    await query(cluster.url(), `create database ${DATABASE}`);
    // Requests back to back, as in failover.test.ts: the per-user money limits would refuse them.
    server = await startServer({ databaseUrl: cluster.url(DATABASE), env: { TRUST_PROXY: 'true', DB_POOL_SIZE: '8', RATE_LIMIT_DISABLED: 'true' }, readyTimeoutMs: 60_000 });
    clients = [];
    for (let i = 0; i < CLIENTS; i += 1) clients.push(await prepareClient(i, server.url));
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
    removeServerBundle();
    if (figures.length > 0) console.info(`\n=== test:ha point-in-time restore ===\n${figures.join('\n')}\n`);
  }, 60_000);

  it('restores with --type=time to just before the DELETE: every acknowledged cash-out is back, the ledger is the one before it', async () => {
    const leader = (await cluster.leader())!;
    const url = cluster.url(DATABASE);
    await timed('full backup', () => cluster.pgbackrest(leader, ['--type=full', 'backup']));

    // Acknowledged money requests, after the backup: the restore must replay them from the WAL archive.
    const log: MoneyRequest[] = [];
    const stop = startStream(clients, () => [server!.url], log);
    await sleep(TRAFFIC_MS);
    await stop();
    const unanswered = log.filter((r) => !r.final || r.final.status >= 300);
    expect(unanswered.map((r) => ({ kind: r.kind, attempts: r.attempts.slice(-3) }))).toEqual([]);
    const ids = (kind: string) => log.filter((r) => r.kind === kind).map((r) => r.rowId!);
    expect(ids('cashout').length).toBeGreaterThan(0);

    // Every payout sent, then the app stopped: nothing writes to the database but the accident
    // from here, so the ledger checked now is the ledger at the moment noted next.
    await ledgerOf(url, true);
    await server!.stop();
    // Just before the accident: what the ledger says, and the moment (the server's clock, UTC).
    const before = await ledgerOf(url, false);
    expect(before.problems).toEqual([]);
    const [cashoutsBefore] = await query<{ n: number }>(url, "select count(*)::int as n from transactions where type = 'cashout'");
    const [moment] = await query<{ at: string; lsn: string }>(
      url,
      "select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as at, pg_current_wal_lsn()::text as lsn",
    );
    // The accident.
    const deleted = await query<{ id: string }>(url, "delete from transactions where type = 'cashout' returning id");
    expect(deleted.length).toBe(cashoutsBefore!.n);
    expect(deleted.length).toBeGreaterThanOrEqual(ids('cashout').length);
    // `check` switches WAL and waits for the segment to reach the repository: the DELETE's commit
    // is archived, so recovery sees a commit after the target and stops there.
    await cluster.pgbackrest(leader, ['check']);
    const info = await cluster.pgbackrest(leader, ['info']);

    // The restore: into a new data directory, to the moment, promoted at the target. Promoted, the
    // copy is a new timeline of the same stanza: it must not archive into the cluster's repository
    // (--archive-mode=off), nor wait for a synchronous standby (its postgresql.conf is the node's).
    const dataDir = cluster.folder('restore/data');
    await timed('restore (--type=time)', () =>
      cluster.pgbackrest(leader, [`--pg1-path=${dataDir}`, '--type=time', `--target=${moment!.at}`, '--target-action=promote', '--archive-mode=off', 'restore']),
    );
    let restored: Standalone | undefined;
    await timed('restored copy started, WAL replayed, promoted', async () => {
      restored = await cluster.startStandalone(dataDir, { synchronous_standby_names: '' });
      await cluster.waitFor('the restored copy to finish recovery', 60_000, async () => {
        if (restored!.child.exitCode !== null) throw new Error(readFileSync(restored!.log, 'utf8'));
        const [row] = await query<{ r: boolean }>(restored!.url(DATABASE), 'select pg_is_in_recovery() as r');
        return row?.r === false;
      });
    });
    const serverLog = readFileSync(restored!.log, 'utf8');
    expect(serverLog, serverLog).toMatch(/recovery stopping before commit of transaction \d+, time /);
    expect((await query<{ archive_mode: string }>(restored!.url(), 'show archive_mode'))[0]?.archive_mode).toBe('off');

    // Everything acknowledged before the DELETE is there, exactly once; the DELETE is not.
    const restoredUrl = restored!.url(DATABASE);
    const [counted] = await query<{ cashouts: number; all_cashouts: number; purchases: number; cards: number }>(
      restoredUrl,
      `select (select count(*)::int from transactions where id = any($1::uuid[]) and type = 'cashout') as cashouts,
              (select count(*)::int from transactions where type = 'cashout') as all_cashouts,
              (select count(*)::int from transactions where id = any($2::uuid[]) and type = 'purchase') as purchases,
              (select count(*)::int from cards where id = any($3::uuid[])) as cards`,
      [ids('cashout'), ids('purchase'), ids('completion')],
    );
    expect(counted).toEqual({ cashouts: ids('cashout').length, all_cashouts: cashoutsBefore!.n, purchases: ids('purchase').length, cards: ids('completion').length });
    // The ledger balances, and is the one checked just before the DELETE.
    const after = await ledgerOf(restoredUrl, false);
    expect(after).toEqual(before);
    const [timeline] = await query<{ tli: number }>(restoredUrl, 'select timeline_id as tli from pg_control_checkpoint()');
    figures.push(
      `${log.length} requests acknowledged after the backup (${ids('cashout').length} cash-outs, ${ids('purchase').length} purchases, ${ids('completion').length} card creations); ` +
        `DELETE of ${deleted.length} cash-outs after ${moment!.at} (LSN ${moment!.lsn}); restored: all ${counted!.all_cashouts} back, ` +
        `ledger ${after.journals} journals and ${after.cards} cards as before, new timeline ${timeline?.tli ?? '?'}`,
      `repository:\n${info.trim()}`,
    );
  }, 150_000);
});
