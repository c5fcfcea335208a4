// CPU time spent by PostgreSQL, the app server and this process (autocannon) during a measured
// run, from /proc. On a shared two-core VM a rate moves with the host's load by up to 2x; the CPU
// each answer costs moves much less, so the floors are ratios of CPU (docs/rules.md#perf-same-run).
import { PgCpuMeter } from './pg-cpu';
import { readStat } from './pg-cpu';

/** CPU milliseconds over a window, or per answer. */
export type CpuMs = {
  /** PostgreSQL's work for the databases measured (their backends and the server's background processes). */
  postgresMs: number;
  /** The part of `postgresMs` spent in the kernel: a yardstick of many small round trips spends more there than a money answer. */
  postgresSystemMs: number;
  /** Everything the PostgreSQL server did meanwhile, other people's work on it included. */
  postgresAllMs: number;
  /** The measured server process (the app, or the bare route). */
  serverMs: number;
  /** This process: the load generator. */
  benchMs: number;
};

let meter: Promise<PgCpuMeter | null> | undefined;

function pgMeter(): Promise<PgCpuMeter | null> {
  meter ??= PgCpuMeter.open().catch(() => null);
  return meter;
}

export async function closeCpuMeter(): Promise<void> {
  const m = await meter;
  meter = undefined;
  await m?.close();
}

const benchCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Starts measuring; `stop()` gives the CPU spent since, in total. */
export async function startCpuWindow(spec: { serverPid?: number; databases?: readonly string[] }): Promise<{ stop(): Promise<CpuMs | null> }> {
  const m = await pgMeter();
  const pgWindow = m ? await m.start(spec.databases ?? []) : null;
  const serverBefore = spec.serverPid ? (readStat(spec.serverPid)?.ms ?? 0) : 0;
  const benchBefore = benchCpuMs();
  return {
    async stop() {
      const serverMs = spec.serverPid ? Math.max(0, (readStat(spec.serverPid)?.ms ?? serverBefore) - serverBefore) : 0;
      const benchMs = benchCpuMs() - benchBefore;
      const pgCpu = await pgWindow?.stop();
      if (!pgCpu) return null; // not Linux, or PostgreSQL elsewhere: no figures
      return { postgresMs: pgCpu.attributedMs, postgresSystemMs: pgCpu.attributedSystemMs, postgresAllMs: pgCpu.serverWideMs, serverMs, benchMs };
    },
  };
}

/** A window's CPU divided by the answers it gave. */
export function cpuPerRequest(total: CpuMs | null, requests: number): CpuMs | null {
  if (!total || requests <= 0) return null;
  return { postgresMs: total.postgresMs / requests, postgresSystemMs: total.postgresSystemMs / requests, postgresAllMs: total.postgresAllMs / requests, serverMs: total.serverMs / requests, benchMs: total.benchMs / requests };
}
