// The two ceilings measured in the same run on the same machine: pgbench's TPC-B-like
// transaction at the bench's client count (the database's own limit for a small write
// transaction) and a bare Fastify route (the framework's limit).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectionParts, createDatabase, dropDatabase } from './postgres';
import { runCommand, startBareServer } from './processes';
import { startCpuWindow } from './cpu';
import { runLoad, type Figures } from './load';
import { percentile } from './stats';

export type PgbenchFigures = {
  tps: number;
  p50: number;
  p99: number;
  mean: number;
  transactions: number;
  failed: number;
  scale: number;
  clients: number;
  seconds: number;
  /** PostgreSQL CPU ms per transaction: its own backends (attributed) and the whole server's. */
  cpu: { postgresMs: number; postgresSystemMs: number; postgresAllMs: number } | null;
};

/** pgbench's `-T` takes whole seconds (at least one): the seconds a run of `seconds` really lasts. */
export function pgbenchSeconds(seconds: number): number {
  return Math.max(1, Math.round(seconds));
}

export async function measurePgbench(options: { clients: number; seconds: number; scale: number }): Promise<PgbenchFigures> {
  const { host, port, user } = connectionParts();
  const name = `payweave_bench_pgbench_${process.pid}`;
  await createDatabase(name);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'payweave-pgbench-'));
  try {
    const common = ['-h', host, '-p', port, '-U', user];
    // Server-side generation (G) is the fast way to fill the scale's 100,000 accounts per unit.
    const init = await runCommand('pgbench', [...common, '-i', '-s', String(options.scale), '-I', 'dtGvp', '-q', name]);
    if (init.code !== 0) throw new Error(`pgbench -i failed:\n${init.stderr}`);
    const threads = Math.max(1, Math.min(options.clients, os.availableParallelism()));
    const cpuWindow = await startCpuWindow({ databases: [name] });
    const run = await runCommand('pgbench', [
      ...common,
      '-c', String(options.clients),
      '-j', String(threads),
      '-T', String(pgbenchSeconds(options.seconds)),
      '-l', `--log-prefix=${path.join(logDir, 'tx')}`,
      name,
    ]);
    const cpuTotal = await cpuWindow.stop();
    if (run.code !== 0) throw new Error(`pgbench failed:\n${run.stderr}\n${run.stdout}`);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout)?.[1] ?? NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
    const failed = Number(/number of failed transactions: (\d+)/.exec(run.stdout)?.[1] ?? 0);
    if (!Number.isFinite(tps)) throw new Error(`could not read tps from pgbench:\n${run.stdout}`);
    // Per-transaction log lines: client_id transaction_no time_us script_no epoch epoch_us.
    const latencies: number[] = [];
    for (const file of readdirSync(logDir)) {
      for (const line of readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
        const us = Number(line.split(' ')[2]);
        if (Number.isFinite(us) && line) latencies.push(us / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    const mean = latencies.reduce((sum, v) => sum + v, 0) / Math.max(1, latencies.length);
    const cpu = cpuTotal && transactions > 0 ? { postgresMs: cpuTotal.postgresMs / transactions, postgresSystemMs: cpuTotal.postgresSystemMs / transactions, postgresAllMs: cpuTotal.postgresAllMs / transactions } : null;
    return { tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99), mean, transactions, failed, scale: options.scale, clients: options.clients, seconds: options.seconds, cpu };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
    await dropDatabase(name);
  }
}

export async function measureBareRoute(options: { connections: number; warmupSeconds: number; seconds: number }): Promise<Figures> {
  const server = await startBareServer();
  try {
    const requests = [{ method: 'GET' as const, path: '/bare' }];
    await runLoad({ url: server.url, connections: options.connections, duration: options.warmupSeconds, requests });
    // Its CPU per answer is the card list's yardstick (docs/rules.md#perf-same-run).
    return await runLoad({ url: server.url, connections: options.connections, duration: options.seconds, requests, serverPid: server.child.pid });
  } finally {
    await server.stop();
  }
}
