// What one run of the benchmark does: the full measurement (`npm run bench`) or the smoke that
// `npm test` runs (`--smoke` or BENCH_SMOKE=1: seconds, not minutes, and no floors enforced), alone
// or against another version of the code (`--against <git ref>`, docs/rules.md#perf-same-run).
import os from 'node:os';
import { LATENCY_MAX_RATE } from './latency';

export type BenchOptions = {
  smoke: boolean;
  /** `--strict`: exit 1 when a floor is missed (a smoke enforces nothing). */
  strict: boolean;
  /** `--skip-ceilings`: no yardsticks (pgbench, bare route, argon2id, required rows): profiling. */
  skipCeilings: boolean;
  /** `--against <ref>`: the git ref built in a worktree and alternated with this tree's build. */
  against: string | undefined;
  /** Rounds of each scenario per version: several when alternating two versions, one alone. */
  rounds: number;
  /** `--allow-dearer cash-out,…`: money answers whose change says why they may cost more than 5% more. */
  allowDearer: string[];
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
  /** Length of the open-loop run at half the measured capacity that gives each answer's p99. */
  latencySeconds: number;
  /** The open-loop run's rate at most (latency.ts says why). */
  latencyMaxRate: number;
  /** pgbench scale factor: at least the number of clients, so TPC-B does not queue on one branch row. */
  pgbenchScale: number;
  /** Users whose drafts are completed (Premium+, so no monthly limit); one in flight at a time each. */
  combineUsers: number;
  /** Drafts prepared per combine user for each measured run. */
  draftsPerUser: number;
  /**
   * Drafts per combine user completed in each warm-up: enough that the tables a completion inserts
   * into (cards, ledger accounts, journals) are past their first pages when the statistics are
   * taken before the measured run (decision 143).
   */
  warmupDraftsPerUser: number;
  /** Users who cash out, one $5,000 card each. */
  cashoutUsers: number;
  /** Users who buy with their card, one $5,000 card each. */
  purchaseUsers: number;
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

const envNumber = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
};

const list = (value: string | undefined) => (value ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const smoke = argv.includes('--smoke') || env.BENCH_SMOKE === '1' || env.BENCH_SMOKE === 'true';
  const valueOf = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i >= 0) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
      return value;
    }
    return argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
  };
  const against = valueOf('--against');
  const roundsFlag = valueOf('--rounds');
  // Two versions alternate in windows shorter than a lone run's: the rounds, not one long window,
  // give the comparison its precision, and the pairs stay close in time.
  const ab = against !== undefined;
  const number = (name: string, full: number, fast: number, abFull = full) => envNumber(env, name, smoke ? fast : ab ? abFull : full);
  // The smoke proves the machinery (a worktree, a build, both servers, a pair): one round.
  const rounds = roundsFlag !== undefined ? Number(roundsFlag) : envNumber(env, 'BENCH_ROUNDS', ab && !smoke ? 4 : 1);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number of at least 1, got ${roundsFlag}`);
  return {
    smoke,
    strict: argv.includes('--strict'),
    skipCeilings: argv.includes('--skip-ceilings'),
    against,
    rounds,
    allowDearer: list(valueOf('--allow-dearer')) ?? [],
    connections: envNumber(env, 'BENCH_CONNECTIONS', 32),
    signInConnections: envNumber(env, 'BENCH_SIGNIN_CONNECTIONS', 4 * os.availableParallelism()),
    warmupSeconds: number('BENCH_WARMUP_SECONDS', 5, 0.5, 3),
    measureSeconds: number('BENCH_SECONDS', 15, 1.5, 10),
    latencySeconds: number('BENCH_LATENCY_SECONDS', 10, 1.5),
    latencyMaxRate: envNumber(env, 'BENCH_LATENCY_MAX_RATE', LATENCY_MAX_RATE),
    pgbenchScale: number('BENCH_PGBENCH_SCALE', 32, 1),
    combineUsers: number('BENCH_COMBINE_USERS', 64, 8),
    draftsPerUser: number('BENCH_DRAFTS_PER_USER', 48, 4, 16),
    warmupDraftsPerUser: number('BENCH_WARMUP_DRAFTS_PER_USER', 8, 1, 4),
    cashoutUsers: number('BENCH_CASHOUT_USERS', 64, 8),
    purchaseUsers: number('BENCH_PURCHASE_USERS', 64, 8),
    readUsers: number('BENCH_READ_USERS', 32, 4),
    isolationSeconds: number('BENCH_ISOLATION_SECONDS', 15, 1.5),
    attackSeconds: number('BENCH_ATTACK_SECONDS', 30, 1.5),
    argon2Seconds: number('BENCH_ARGON2_SECONDS', 8, 1),
    jsonOut: valueOf('--json') ?? env.BENCH_JSON,
    only: list(valueOf('--only')),
  };
}
