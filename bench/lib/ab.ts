// The A/B comparison of docs/rules.md#perf-same-run, pure arithmetic over the rounds' figures
// (bench/lib/ab.test.ts): version A is the ref (`--against`), B this tree; each round measures A,
// then B, so round r's two figures are a pair taken minutes apart at most, on the same host in the
// same state. A change is judged by the median of its pairs' ratios, which one disturbed window
// (a neighbour's burst, a checkpoint) cannot move much.
import type { Figures } from './load';
import type { Floor } from './report';
import { MONEY_SCENARIOS, type ScenarioName } from './scenarios';

/** A money answer may cost at most this much of the ref's CPU per answer (docs/rules.md#perf-same-run). */
export const MAX_DEARER = 1.05;

export type RefAbout = { ref: string; commit: string; subject: string; dependencies: string };
export type AbRuns = Partial<Record<ScenarioName, { a: Figures[]; b: Figures[] }>>;
export type AbResult = { against: RefAbout; head: string; rounds: number; runs: AbRuns };

export type Comparison = {
  scenario: ScenarioName;
  /** Median over the rounds of (PostgreSQL + server) CPU ms per answer. */
  aMs: number | null;
  bMs: number | null;
  /** Median answers/s over the rounds. */
  aRps: number | null;
  bRps: number | null;
  /** B ÷ A of each round that has CPU figures on both sides, in round order. */
  ratios: number[];
  median: number | null;
};

/** (PostgreSQL + server) CPU ms per answer: what the money floors always weighed. */
export function cpuPerAnswer(figures: Figures | undefined): number | null {
  return figures?.cpu ? figures.cpu.postgresMs + figures.cpu.serverMs : null;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** B ÷ A round by round; a round missing either side (or with A at zero) makes no pair. */
export function pairRatios(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): number[] {
  const ratios: number[] = [];
  for (let round = 0; round < Math.min(a.length, b.length); round += 1) {
    const x = a[round];
    const y = b[round];
    if (x === null || x === undefined || y === null || y === undefined || x <= 0) continue;
    ratios.push(y / x);
  }
  return ratios;
}

const known = (values: ReadonlyArray<number | null>) => values.filter((v): v is number => v !== null);

export function compareRuns(runs: AbRuns): Comparison[] {
  return (Object.entries(runs) as Array<[ScenarioName, { a: Figures[]; b: Figures[] }]>).map(([scenario, { a, b }]) => {
    const aCpu = a.map(cpuPerAnswer);
    const bCpu = b.map(cpuPerAnswer);
    const ratios = pairRatios(aCpu, bCpu);
    return {
      scenario,
      aMs: median(known(aCpu)),
      bMs: median(known(bCpu)),
      aRps: median(a.map((f) => f.rps)),
      bRps: median(b.map((f) => f.rps)),
      ratios,
      median: median(ratios),
    };
  });
}

/**
 * The floor of docs/rules.md#perf-same-run for each money answer compared: the median pair at most
 * 5% dearer, unless `--allow-dearer` names it (the change says why). No pair is a missed floor:
 * a change that cannot be measured is not shown to be within 5%.
 */
export function abFloors(comparisons: readonly Comparison[], allowDearer: readonly string[]): Floor[] {
  const floors: Floor[] = [];
  for (const c of comparisons) {
    if (!MONEY_SCENARIOS.includes(c.scenario)) continue;
    const what = `CPU per answer <= ${MAX_DEARER.toFixed(2)}x the ref's (median of ${c.ratios.length} pair${c.ratios.length === 1 ? '' : 's'})`;
    if (c.median === null) {
      floors.push({ scenario: c.scenario, what, value: 'no CPU figures on both sides', met: false });
      continue;
    }
    const within = c.median <= MAX_DEARER;
    const allowed = !within && allowDearer.includes(c.scenario);
    floors.push({ scenario: c.scenario, what, value: `${c.median.toFixed(3)}x${allowed ? ', allowed by --allow-dearer' : ''}`, met: within || allowed });
  }
  return floors;
}

/**
 * The rounds of one version pooled into one set of figures: CPU per answer over all the answers,
 * answers/s over all the measured time, the median round's percentiles.
 */
export function poolRounds(rounds: readonly Figures[]): Figures | undefined {
  if (rounds.length <= 1) return rounds[0];
  const ok = (f: Figures) => f.rps * f.durationSeconds;
  const answers = rounds.reduce((sum, f) => sum + ok(f), 0);
  const seconds = rounds.reduce((sum, f) => sum + f.durationSeconds, 0);
  const weighted = (value: (f: Figures) => number) => (answers > 0 ? rounds.reduce((sum, f) => sum + value(f) * ok(f), 0) / answers : 0);
  const cpus = rounds.map((f) => f.cpu);
  const statuses: Record<string, number> = {};
  for (const f of rounds) for (const [status, count] of Object.entries(f.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  return {
    rps: answers / Math.max(0.001, seconds),
    p50: median(rounds.map((f) => f.p50)) ?? 0,
    p99: median(rounds.map((f) => f.p99)) ?? 0,
    mean: weighted((f) => f.mean),
    max: Math.max(...rounds.map((f) => f.max)),
    requests: rounds.reduce((sum, f) => sum + f.requests, 0),
    non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
    errors: rounds.reduce((sum, f) => sum + f.errors, 0),
    durationSeconds: seconds,
    failures: rounds.flatMap((f) => f.failures).slice(0, 5),
    cpu: cpus.every((c) => c !== null)
      ? {
          postgresMs: weighted((f) => f.cpu?.postgresMs ?? 0),
          postgresSystemMs: weighted((f) => f.cpu?.postgresSystemMs ?? 0),
          postgresAllMs: weighted((f) => f.cpu?.postgresAllMs ?? 0),
          serverMs: weighted((f) => f.cpu?.serverMs ?? 0),
          benchMs: weighted((f) => f.cpu?.benchMs ?? 0),
        }
      : null,
    statuses,
  };
}
