// PostgreSQL's CPU time over a measured window, from /proc (docs/rules.md#perf-same-run: the database's CPU per
// answer against its CPU per pgbench transaction, taken in the same run).
//
// Two figures, because the machine is shared (other people's tests use the same PostgreSQL server,
// and a Patroni cluster may run beside it):
//  - server-wide: every live child of this server's postmaster, plus the postmaster's cutime and
//    cstime, where the kernel adds a child's CPU when it exits and is reaped. pgbench's 32 backends
//    exit at the end of its run, so counting only live processes would miss all of their work.
//    Exact when nothing else uses the server, and it includes everyone else's work when something does.
//  - attributed: only the backends connected to the databases being measured (and the server's
//    background processes: WAL writer, checkpointer, background writer, autovacuum launcher),
//    followed by polling pg_stat_activity every 100 ms. A backend that exits inside the window is
//    counted up to its last poll, so at most the last 100 ms of a 15 s pgbench run are lost (< 1%).
// The ratios use the attributed figure; the report shows the server-wide one beside it, and their
// difference is other people's work on the server during the window.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { ADMIN_URL } from './postgres';

const TICK_MS = 10; // USER_HZ is 100 on Linux
const POLL_MS = 100;

type Stat = { ppid: number; ms: number; systemMs: number; childrenMs: number };

/** utime + stime, stime alone, and cutime + cstime (the reaped children's), of one process; null once it is gone. */
export function readStat(pid: number): Stat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command (which may hold spaces and parentheses): state is field 3, ppid 4,
    // utime 14, stime 15, cutime 16, cstime 17 (1-based), i.e. indices 1, 11, 12, 13, 14 here.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      systemMs: Number(fields[12]) * TICK_MS,
      childrenMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
    };
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Server-wide CPU: live children, the postmaster itself, and every child it has reaped. */
export function serverWideMs(postmasterPid: number): number {
  const pm = readStat(postmasterPid);
  if (!pm) return 0;
  let total = pm.ms + pm.childrenMs;
  for (const child of childrenOf(postmasterPid)) total += readStat(child)?.ms ?? 0;
  return total;
}

/** `attributedSystemMs`: the part of `attributedMs` spent in the kernel (system calls, wake-ups, the WAL's flushes). */
export type PgCpu = { attributedMs: number; attributedSystemMs: number; serverWideMs: number };

type Tracked = { first: number; last: number; firstSystem: number; lastSystem: number; ours: boolean | null };

export type PgCpuWindow = { stop(): Promise<PgCpu> };

/** The PostgreSQL server's processes, watched through one connection of its own. */
export class PgCpuMeter {
  private constructor(
    private readonly client: pg.Client,
    readonly postmasterPid: number,
  ) {}

  /** Null when /proc is not readable or PostgreSQL runs on another machine: no CPU figures then. */
  static async open(): Promise<PgCpuMeter | null> {
    const client = new pg.Client({ connectionString: ADMIN_URL, application_name: 'payweave-bench-cpu' });
    await client.connect();
    const pid = Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid);
    const postmasterPid = readStat(pid)?.ppid;
    if (!postmasterPid) {
      await client.end();
      return null;
    }
    return new PgCpuMeter(client, postmasterPid);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }

  /** Starts a window over `databases`; `stop()` gives the CPU spent in it. */
  async start(databases: readonly string[]): Promise<PgCpuWindow> {
    const wanted = new Set(databases);
    const tracked = new Map<number, Tracked>();
    const classify = async (pids: number[]) => {
      if (pids.length === 0) return;
      const rows = await this.client.query<{ pid: number; datname: string | null; backend_type: string }>(
        'select pid, datname, backend_type from pg_stat_activity where pid = any($1::int[])',
        [pids],
      );
      for (const row of rows.rows) {
        const entry = tracked.get(row.pid);
        // Client backends and autovacuum workers belong to a database; the rest serve the whole server.
        if (entry) entry.ours = row.datname === null ? row.backend_type !== 'client backend' : wanted.has(row.datname);
      }
    };
    const poll = async (initial: boolean) => {
      for (const pid of childrenOf(this.postmasterPid)) {
        const stat = readStat(pid);
        if (!stat) continue;
        const entry = tracked.get(pid);
        if (entry) {
          entry.last = stat.ms;
          entry.lastSystem = stat.systemMs;
        } else {
          tracked.set(pid, { first: initial ? stat.ms : 0, last: stat.ms, firstSystem: initial ? stat.systemMs : 0, lastSystem: stat.systemMs, ours: null });
        }
      }
      await classify([...tracked].filter(([, t]) => t.ours === null).map(([pid]) => pid));
    };
    const wideBefore = serverWideMs(this.postmasterPid);
    await poll(true);
    let polling: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      polling = polling.then(() => poll(false)).catch(() => {});
    }, POLL_MS);
    return {
      stop: async () => {
        clearInterval(timer);
        await polling;
        await poll(false).catch(() => {});
        const wide = serverWideMs(this.postmasterPid) - wideBefore;
        let attributed = 0;
        let attributedSystem = 0;
        for (const t of tracked.values()) {
          if (!t.ours) continue;
          attributed += Math.max(0, t.last - t.first);
          attributedSystem += Math.max(0, t.lastSystem - t.firstSystem);
        }
        return { attributedMs: attributed, attributedSystemMs: attributedSystem, serverWideMs: Math.max(0, wide) };
      },
    };
  }
}
