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
  scenarios: Partial<Record<ScenarioName, Figures & { ratio: number | null }>>;
  floors: Floor[];
};

export function describeMachine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  return `${model}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export function ceilingRate(result: Pick<BenchResult, 'pgbench' | 'bare'>, ceiling: Ceiling): number | null {
  return ceiling === 'pgbench' ? (result.pgbench?.tps ?? null) : (result.bare?.rps ?? null);
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
  lines.push('| ceiling | rate | p50 ms | p99 ms |');
  lines.push('|---|---:|---:|---:|');
  if (result.pgbench) {
    const p = result.pgbench;
    lines.push(`| pgbench TPC-B-like, scale ${p.scale}, ${p.clients} clients, ${p.seconds} s | ${n(p.tps)} tps | ${n(p.p50, 1)} | ${n(p.p99, 1)} |`);
  }
  if (result.bare) lines.push(`| bare Fastify route (GET, JSON) | ${n(result.bare.rps)} req/s | ${n(result.bare.p50)} | ${n(result.bare.p99)} |`);
  lines.push('');
  lines.push('| scenario | req/s | p50 ms | p99 ms | non-2xx | ceiling | ratio | floor |');
  lines.push('|---|---:|---:|---:|---:|---|---:|---|');
  for (const [name, f] of Object.entries(result.scenarios) as Array<[ScenarioName, Figures & { ratio: number | null }]>) {
    const info = SCENARIO_INFO[name];
    const own = result.floors.filter((fl) => fl.scenario === name);
    const floorText = own.map((fl) => `${fl.met ? 'met' : 'MISSED'}: ${fl.what.replace(`${name} `, '')}`).join('; ');
    lines.push(`| ${info.label} | ${n(f.rps)} | ${n(f.p50)} | ${n(f.p99)} | ${f.non2xx + f.errors} | ${info.ceiling === 'pgbench' ? 'pgbench' : 'bare route'} | ${pct(f.ratio)} | ${floorText} |`);
  }
  lines.push('');
  const missed = result.floors.filter((f) => !f.met);
  if (result.mode === 'smoke') lines.push('Smoke run: durations too short to mean anything; floors not enforced.');
  const missedLabel = result.mode === 'smoke' ? 'Floors not reached by this smoke (not enforced)' : 'Floors missed';
  lines.push(missed.length === 0 ? 'Every floor met.' : `${missedLabel} (${missed.length}): ${missed.map((f) => f.what).join('; ')}`);
  return lines.join('\n');
}
