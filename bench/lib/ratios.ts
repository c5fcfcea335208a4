// The ratios of one run: the floors `--strict` enforces (latency, isolation; the A/B comparison is
// in ab.ts) and the headroom it only reports (docs/rules.md#perf-headroom: each money answer against
// a TPC-B transaction and its own required rows, the card list against the bare route, sign-in
// against the host's argon2id rate), all taken in the same run on the same host (decision 187).
// Pure arithmetic over the run's figures; bench/lib/ratios.test.ts checks it.
import type { CpuMs } from './cpu';

export const FLOORS = {
  /** p99 of every answer but sign-in, at an open-loop rate of half its capacity, ms. */
  p99MaxMs: 100,
  /** Under a flood, the other endpoints' p99 stays within this factor of their unloaded p99. */
  isolationMaxFactor: 2,
  /** An honest sign-in's p99 during the recovery-code and wrong-password flood, ms. */
  floodSignInMaxP99Ms: 1000,
} as const;

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length);

/**
 * PostgreSQL CPU per TPC-B transaction over the pgbench runs of the run (before and after the
 * scenarios): total CPU over total transactions, so a longer run weighs more.
 */
export function pgMsPerTransaction(runs: ReadonlyArray<{ transactions: number; cpu: { postgresMs: number } | null } | null>): number | null {
  let cpu = 0;
  let transactions = 0;
  for (const run of runs) {
    if (!run?.cpu || run.transactions <= 0) continue;
    cpu += run.cpu.postgresMs * run.transactions;
    transactions += run.transactions;
  }
  return transactions > 0 && cpu > 0 ? cpu / transactions : null;
}

/** (PostgreSQL + server CPU per answer) in TPC-B transactions' worth. */
export function inTpcbTransactions(perAnswer: CpuMs | null, pgPerTransaction: number | null): number | null {
  if (!perAnswer || !pgPerTransaction) return null;
  return (perAnswer.postgresMs + perAnswer.serverMs) / pgPerTransaction;
}

/**
 * (PostgreSQL + server CPU per answer) ÷ PostgreSQL's CPU for the rows that answer must write,
 * measured alone in the same run (bench/lib/required-rows.ts), pooled over its measurements by
 * statements. Reported, not enforced: the yardstick decision 155 proposes for the money floors.
 */
export function inRequiredRows(perAnswer: CpuMs | null, rows: ReadonlyArray<{ statements: number; postgresMs: number } | null>): number | null {
  let cpu = 0;
  let statements = 0;
  for (const run of rows) {
    if (!run || run.statements <= 0) continue;
    cpu += run.postgresMs * run.statements;
    statements += run.statements;
  }
  if (!perAnswer || statements === 0 || cpu <= 0) return null;
  return (perAnswer.postgresMs + perAnswer.serverMs) / (cpu / statements);
}

/** Server CPU per answer ÷ the bare route's server CPU per answer (the mean of its measurements). */
export function againstBareRoute(perAnswer: CpuMs | null, bare: ReadonlyArray<CpuMs | null>): number | null {
  const bareMs = mean(bare.filter((c): c is CpuMs => c !== null && c.serverMs > 0).map((c) => c.serverMs));
  if (!perAnswer || !bareMs) return null;
  return perAnswer.serverMs / bareMs;
}

export type Argon2Run = { rate: number; cpuMsPerVerification: number };

/** Sign-ins per second as a share of the host's argon2id rate (the mean of its measurements). */
export function signInShare(signInsPerSecond: number, argon2: ReadonlyArray<Argon2Run | null>): number | null {
  const rate = mean(argon2.filter((a): a is Argon2Run => a !== null && a.rate > 0).map((a) => a.rate));
  return rate ? signInsPerSecond / rate : null;
}

/** Server CPU per sign-in beyond one argon2id verification (ms); PostgreSQL's is reported apart. */
export function nonHashMs(perSignIn: CpuMs | null, argon2: ReadonlyArray<Argon2Run | null>): number | null {
  const hashMs = mean(argon2.filter((a): a is Argon2Run => a !== null && a.cpuMsPerVerification > 0).map((a) => a.cpuMsPerVerification));
  if (!perSignIn || !hashMs) return null;
  return perSignIn.serverMs - hashMs;
}

/** Loaded p99 ÷ unloaded p99 (null without both). */
export function isolationFactor(unloadedP99: number | undefined, loadedP99: number | undefined): number | null {
  if (unloadedP99 === undefined || loadedP99 === undefined || unloadedP99 <= 0) return null;
  return loadedP99 / unloadedP99;
}
