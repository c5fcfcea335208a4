// What one run of the benchmark does: the full measurement (`npm run bench`) or the smoke that
// `npm test` runs (`--smoke` or BENCH_SMOKE=1: seconds, not minutes, and no floors enforced).
import os from 'node:os';

export type BenchOptions = {
  smoke: boolean;
  /** Concurrent connections of autocannon and clients of pgbench (the issue: 32). */
  connections: number;
  /**
   * Connections of the sign-in scenario: four per core keep every core hashing (one hash per core
   * runs, the rest wait in the argon2id pool's queue) without passing the queue, so that no
   * sign-in is shed with a 503 whose CPU would be charged to the sign-ins that succeeded.
   */
  signInConnections: number;
  warmupSeconds: number;
  measureSeconds: number;
  /** pgbench scale factor: at least the number of clients, so TPC-B does not queue on one branch row. */
  pgbenchScale: number;
  /** Users whose drafts are completed (Premium+, so no monthly limit); one in flight at a time each. */
  combineUsers: number;
  /** Drafts prepared per combine user for the measured run. */
  draftsPerUser: number;
  /**
   * Drafts per combine user completed in the warm-up: enough that the tables a completion inserts
   * into (cards, ledger accounts, journals) are past their first pages when the statistics are
   * taken before the measured run (decision 143).
   */
  warmupDraftsPerUser: number;
  /** Users who cash out, one $1,000 card each. */
  cashoutUsers: number;
  /** Users who sign in and list their cards (Free plan, 3 cards each). */
  readUsers: number;
  /** Length of each phase (without, then with the flood) of the isolation scenario. */
  isolationSeconds: number;
  /** Length of each phase of the attack scenario: longer, so its cash-out p99 is not one request's stall (decision 147). */
  attackSeconds: number;
  /** Seconds of each argon2id rate measurement (before and after the scenarios). */
  argon2Seconds: number;
  /** Write the figures as JSON here too. */
  jsonOut: string | undefined;
  /** Only these scenarios (comma-separated names), for profiling one at a time. */
  only: string[] | undefined;
};

const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
};

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const smoke = argv.includes('--smoke') || env.BENCH_SMOKE === '1' || env.BENCH_SMOKE === 'true';
  const valueOf = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
  };
  const only = valueOf('--only');
  return {
    smoke,
    connections: envNumber('BENCH_CONNECTIONS', 32),
    signInConnections: envNumber('BENCH_SIGNIN_CONNECTIONS', 4 * os.availableParallelism()),
    warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', smoke ? 0.5 : 5),
    measureSeconds: envNumber('BENCH_SECONDS', smoke ? 1.5 : 15),
    pgbenchScale: envNumber('BENCH_PGBENCH_SCALE', smoke ? 1 : 32),
    combineUsers: envNumber('BENCH_COMBINE_USERS', smoke ? 8 : 64),
    draftsPerUser: envNumber('BENCH_DRAFTS_PER_USER', smoke ? 4 : 48),
    warmupDraftsPerUser: envNumber('BENCH_WARMUP_DRAFTS_PER_USER', smoke ? 1 : 8),
    cashoutUsers: envNumber('BENCH_CASHOUT_USERS', smoke ? 8 : 64),
    readUsers: envNumber('BENCH_READ_USERS', smoke ? 4 : 32),
    isolationSeconds: envNumber('BENCH_ISOLATION_SECONDS', smoke ? 1.5 : 15),
    attackSeconds: envNumber('BENCH_ATTACK_SECONDS', smoke ? 1.5 : 30),
    argon2Seconds: envNumber('BENCH_ARGON2_SECONDS', smoke ? 1 : 8),
    jsonOut: valueOf('--json') ?? env.BENCH_JSON,
    only: only ? only.split(',').map((s) => s.trim()) : undefined,
  };
}
