// CPU time spent by PostgreSQL, the app server and this process (autocannon) during a measured
// run, from /proc. On a shared two-core VM a rate moves with the host's load by up to 2x; the CPU
// each request costs moves much less, so before/after comparisons read it first (performance.md).
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds of PostgreSQL's processes, the server process and this one: a snapshot, or per answer. */
export type CpuMs = { postgresMs: number; serverMs: number; benchMs: number };

const TICK_MS = 10; // USER_HZ is 100 on Linux

function processCpuMs(pid: number): { comm: string; ms: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    // Fields after the command: state is field 3, utime 14, stime 15 (1-based).
    const fields = stat.slice(close + 2).split(' ');
    return { comm, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null; // gone between the listing and the read
  }
}

/** A snapshot; PostgreSQL backends that exit between two snapshots are not counted (the pool keeps them). */
export function sampleCpu(serverPid: number | undefined): CpuMs {
  let postgresMs = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    // not Linux: no figures
  }
  for (const name of pids) {
    const p = processCpuMs(Number(name));
    if (p?.comm === 'postgres') postgresMs += p.ms;
  }
  const usage = process.cpuUsage();
  return {
    postgresMs,
    serverMs: serverPid ? (processCpuMs(serverPid)?.ms ?? 0) : 0,
    benchMs: (usage.user + usage.system) / 1000,
  };
}

export function cpuPerRequest(before: CpuMs, after: CpuMs, requests: number): CpuMs | null {
  if (requests <= 0 || after.postgresMs === 0) return null;
  const per = (a: number, b: number) => Math.max(0, a - b) / requests;
  return { postgresMs: per(after.postgresMs, before.postgresMs), serverMs: per(after.serverMs, before.serverMs), benchMs: per(after.benchMs, before.benchMs) };
}
