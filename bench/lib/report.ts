// The report: machine, ceilings, each scenario as a ratio to its ceiling, and the floors of issue 8.
import os from 'node:os';
import type { PgbenchFigures } from './ceilings';
import type { Figures } from './load';
import type { BenchOptions } from './options';
import type { ScenarioName } from './scenarios';

export type Ceiling = 'pgbench' | 'bare';

export const SCENARIO_INFO: Record<ScenarioName, { label: string; ceiling: Ceiling; minRatio: number | null }> = {
  'sign-in': { label: 'sign in (argon2id verify + session)', ceiling: 'bare', minRatio: null },
  'list-cards': { label: 'list cards (GET /api/cards, 3 cards)', ceiling: 'bare', minRatio: 0.3 },
  'combine-complete': { label: 'complete a combine of 2 sources', ceiling: 'pgbench', minRatio: 0.25 },
  'cash-out': { label: 'cash out (POST /api/cashouts)', ceiling: 'pgbench', minRatio: 0.4 },
};

export const P99_FLOOR_MS = 100;

export type Floor = { scenario: ScenarioName; what: string; met: boolean };

export type BenchResult = {
  mode: 'full' | 'smoke';
  date: string;
  machine: string;
  postgres: string;
  options: Pick<BenchOptions, 'connections' | 'warmupSeconds' | 'measureSeconds' | 'pgbenchScale'>;
  pgbench: PgbenchFigures | null;
  bare: Figures | null;
  /** The same two ceilings measured again after the scenarios: the host's speed drifts within a run. */
  pgbenchAfter: PgbenchFigures | null;
  bareAfter: Figures | null;
  scenarios: Partial<Record<ScenarioName, Figures & { ratio: number | null }>>;
  floors: Floor[];
};

/** A run's result before anything is measured. */
export function newBenchResult(about: Pick<BenchResult, 'mode' | 'date' | 'machine' | 'postgres' | 'options'>): BenchResult {
  return { ...about, pgbench: null, bare: null, pgbenchAfter: null, bareAfter: null, scenarios: {}, floors: [] };
}

export function describeMachine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  return `${model}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

type Ceilings = Pick<BenchResult, 'pgbench' | 'bare' | 'pgbenchAfter' | 'bareAfter'>;

/** The ceiling's rates measured before and after the scenarios (one or both; none when skipped). */
function ceilingRates(result: Ceilings, ceiling: Ceiling): number[] {
  const rates = ceiling === 'pgbench' ? [result.pgbench?.tps, result.pgbenchAfter?.tps] : [result.bare?.rps, result.bareAfter?.rps];
  return rates.filter((rate): rate is number => rate !== undefined);
}

/** A scenario's ceiling: the mean of the measurements that bracket the scenarios. */
export function ceilingRate(result: Ceilings, ceiling: Ceiling): number | null {
  const rates = ceilingRates(result, ceiling);
  return rates.length === 0 ? null : rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
}

/** How far the two measurements of a ceiling lie apart, relative to their mean (null with fewer than two). */
export function ceilingDrift(result: Ceilings, ceiling: Ceiling): number | null {
  const rates = ceilingRates(result, ceiling);
  if (rates.length < 2) return null;
  const mean = ceilingRate(result, ceiling) ?? 1;
  return (Math.max(...rates) - Math.min(...rates)) / mean;
}

/** Above this drift the report says that the host's speed moved too much for the ratios to be read closely. */
export const CEILING_DRIFT_WARNING = 0.2;

/** Each scenario's ratio to its ceiling, once every measurement of the ceilings is in. */
export function withRatios(result: BenchResult): BenchResult['scenarios'] {
  const scenarios: BenchResult['scenarios'] = {};
  for (const [name, figures] of Object.entries(result.scenarios) as Array<[ScenarioName, Figures & { ratio: number | null }]>) {
    const ceiling = ceilingRate(result, SCENARIO_INFO[name].ceiling);
    scenarios[name] = { ...figures, ratio: ceiling ? figures.rps / ceiling : null };
  }
  return scenarios;
}

export function evaluateFloors(result: Pick<BenchResult, 'pgbench' | 'bare' | 'scenarios'>): Floor[] {
  const floors: Floor[] = [];
  for (const [name, figures] of Object.entries(result.scenarios) as Array<[ScenarioName, Figures & { ratio: number | null }]>) {
    const info = SCENARIO_INFO[name];
    if (info.minRatio !== null && figures.ratio !== null) {
      floors.push({ scenario: name, what: `${name} >= ${info.minRatio * 100}% of ${info.ceiling === 'pgbench' ? 'pgbench tps' : 'the bare route'}`, met: figures.ratio >= info.minRatio });
    }
    floors.push({ scenario: name, what: `${name} p99 < ${P99_FLOOR_MS} ms`, met: figures.p99 < P99_FLOOR_MS });
  }
  return floors;
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (ratio: number | null) => (ratio === null ? 'n/a' : `${(ratio * 100).toFixed(1)}%`);

export function formatReport(result: BenchResult): string {
  const lines: string[] = [];
  lines.push(`## PayWeave benchmark (${result.mode}) — ${result.date}`);
  lines.push('');
  lines.push(`- machine: ${result.machine}`);
  lines.push(`- database: ${result.postgres}`);
  lines.push(`- load: autocannon, ${result.options.connections} connections, ${result.options.warmupSeconds} s warm-up, ${result.options.measureSeconds} s measured (combine: a fixed number of prepared drafts)`);
  lines.push('');
  lines.push('| ceiling | when | rate | p50 ms | p99 ms |');
  lines.push('|---|---|---:|---:|---:|');
  for (const [when, p] of [['before', result.pgbench], ['after', result.pgbenchAfter]] as const) {
    if (p) lines.push(`| pgbench TPC-B-like, scale ${p.scale}, ${p.clients} clients, ${p.seconds} s | ${when} | ${n(p.tps)} tps | ${n(p.p50, 1)} | ${n(p.p99, 1)} |`);
  }
  for (const [when, b] of [['before', result.bare], ['after', result.bareAfter]] as const) {
    if (b) lines.push(`| bare Fastify route (GET, JSON) | ${when} | ${n(b.rps)} req/s | ${n(b.p50)} | ${n(b.p99)} |`);
  }
  for (const ceiling of ['pgbench', 'bare'] as const) {
    const drift = ceilingDrift(result, ceiling);
    if (drift === null) continue;
    const name = ceiling === 'pgbench' ? 'pgbench' : 'the bare route';
    lines.push('');
    lines.push(
      `Ceiling used for ${name}: the mean, ${n(ceilingRate(result, ceiling) ?? 0)}/s; its two measurements lie ${(drift * 100).toFixed(0)}% apart` +
        (drift > CEILING_DRIFT_WARNING ? ` (**over ${CEILING_DRIFT_WARNING * 100}%: the host's speed moved during the run, so read the ratios to it as approximate**).` : '.'),
    );
  }
  lines.push('');
  lines.push('| scenario | req/s | p50 ms | p99 ms | non-2xx | CPU ms per answer (PostgreSQL / server / load) | ceiling | ratio | floor |');
  lines.push('|---|---:|---:|---:|---:|---|---|---:|---|');
  for (const [name, f] of Object.entries(result.scenarios) as Array<[ScenarioName, Figures & { ratio: number | null }]>) {
    const info = SCENARIO_INFO[name];
    const own = result.floors.filter((fl) => fl.scenario === name);
    const floorText = own.map((fl) => `${fl.met ? 'met' : 'MISSED'}: ${fl.what.replace(`${name} `, '')}`).join('; ');
    const cpu = f.cpu ? `${n(f.cpu.postgresMs, 2)} / ${n(f.cpu.serverMs, 2)} / ${n(f.cpu.benchMs, 2)}` : 'n/a';
    lines.push(`| ${info.label} | ${n(f.rps)} | ${n(f.p50)} | ${n(f.p99)} | ${f.non2xx + f.errors} | ${cpu} | ${info.ceiling === 'pgbench' ? 'pgbench' : 'bare route'} | ${pct(f.ratio)} | ${floorText} |`);
  }
  lines.push('');
  const missed = result.floors.filter((f) => !f.met);
  if (result.mode === 'smoke') lines.push('Smoke run: durations too short to mean anything; floors not enforced.');
  const missedLabel = result.mode === 'smoke' ? 'Floors not reached by this smoke (not enforced)' : 'Floors missed';
  lines.push(missed.length === 0 ? 'Every floor met.' : `${missedLabel} (${missed.length}): ${missed.map((f) => f.what).join('; ')}`);
  return lines.join('\n');
}
