// The report: machine, the yardsticks measured in the same run (pgbench's CPU per TPC-B transaction,
// the bare route's CPU per answer, the host's argon2id rate, the required rows), each scenario's CPU
// and its headroom against them (reported, not enforced: docs/rules.md#perf-headroom), the latency
// at half the capacity, the floods, the A/B comparison with `--against`, and the floors `--strict`
// enforces (decision 187).
import os from 'node:os';
import { abFloors, type AbResult, type Comparison } from './ab';
import type { Argon2Figures } from './argon2-rate';
import type { PgbenchFigures } from './ceilings';
import type { FloodResult } from './flood';
import type { HonestFigures } from './honest';
import type { LatencyFigures } from './latency';
import type { Figures } from './load';
import type { BenchOptions } from './options';
import type { RequiredRowsFigures } from './required-rows';
import { FLOORS, againstBareRoute, inRequiredRows, inTpcbTransactions, isolationFactor, nonHashMs, pgMsPerTransaction, signInShare } from './ratios';
import { abSection, latencySection } from './report-sections';
import { LATENCY_SCENARIOS, type ScenarioName } from './scenarios';

export const SCENARIO_LABELS: Record<ScenarioName, string> = {
  'sign-in': 'sign in (argon2id verify + session)',
  'list-cards': 'list cards (GET /api/cards, 3 cards)',
  'combine-complete': 'complete a combine of 2 sources',
  'cash-out': 'cash out (POST /api/cashouts)',
  purchase: 'buy with a card (POST /api/cards/:id/purchases)',
};

export type Floor = { scenario: string; what: string; value: string; met: boolean };

export type Ratios = {
  /** PostgreSQL CPU ms per pgbench TPC-B transaction (both pgbench runs pooled). */
  pgMsPerTransaction: number | null;
  /** (PostgreSQL + server CPU per answer) in TPC-B transactions. */
  completion: number | null;
  cashout: number | null;
  purchase: number | null;
  /** (PostgreSQL + server CPU per answer) ÷ PostgreSQL CPU of the rows it must write (decision 155: reported, not a floor). */
  completionInRows: number | null;
  cashoutInRows: number | null;
  /** Server CPU per card list ÷ the bare route's. */
  cardList: number | null;
  /** Sign-ins/s ÷ argon2id verifications/s on all cores. */
  signInShare: number | null;
  /** Server CPU per sign-in beyond one verification, ms. */
  signInNonHashMs: number | null;
};

export type BenchResult = {
  mode: 'full' | 'smoke';
  date: string;
  machine: string;
  postgres: string;
  options: Pick<BenchOptions, 'connections' | 'warmupSeconds' | 'measureSeconds' | 'pgbenchScale' | 'isolationSeconds'>;
  /** The yardsticks, measured before the scenarios and again after them (decision 019). */
  pgbench: PgbenchFigures | null;
  pgbenchAfter: PgbenchFigures | null;
  bare: Figures | null;
  bareAfter: Figures | null;
  argon2: Argon2Figures | null;
  argon2After: Argon2Figures | null;
  /** What the rows a cash-out and a completion must write cost PostgreSQL alone (decisions 148, 155). */
  rows: RequiredRowsFigures | null;
  rowsAfter: RequiredRowsFigures | null;
  /** This tree's figures (with `--against`, its rounds pooled). */
  scenarios: Partial<Record<ScenarioName, Figures>>;
  /** docs/rules.md#perf-latency: each answer but sign-in at an open-loop rate of half its capacity. */
  latency: Partial<Record<ScenarioName, LatencyFigures>>;
  /** `--against`: both versions' rounds, and what they compare to. */
  ab: AbResult | null;
  comparisons: Comparison[];
  /** `--allow-dearer`: money answers whose change says why they may cost more. */
  allowDearer: string[];
  /** docs/rules.md#perf-isolation: sign-in flood beside card lists and cash-outs. */
  isolation: FloodResult | null;
  /** recovery-code and wrong-password flood from 16 addresses, rate limits on. */
  attack: FloodResult | null;
  ratios: Ratios;
  floors: Floor[];
};

/**
 * The share of PostgreSQL's CPU spent in the kernel. A yardstick of many small round trips spends
 * more of its CPU there than a money answer does, so a host whose system calls cost more moves the
 * ratios without any change to the app (docs/performance.md, "System time").
 */
export function kernelShare(cpu: { postgresMs: number; postgresSystemMs: number }): string {
  return cpu.postgresMs > 0 ? `${Math.round((100 * cpu.postgresSystemMs) / cpu.postgresMs)}%` : 'n/a';
}

/** A run's result before anything is measured. */
export function newBenchResult(about: Pick<BenchResult, 'mode' | 'date' | 'machine' | 'postgres' | 'options'>): BenchResult {
  return {
    ...about,
    pgbench: null,
    pgbenchAfter: null,
    bare: null,
    bareAfter: null,
    argon2: null,
    argon2After: null,
    rows: null,
    rowsAfter: null,
    scenarios: {},
    latency: {},
    ab: null,
    comparisons: [],
    allowDearer: [],
    isolation: null,
    attack: null,
    ratios: { pgMsPerTransaction: null, completion: null, cashout: null, purchase: null, completionInRows: null, cashoutInRows: null, cardList: null, signInShare: null, signInNonHashMs: null },
    floors: [],
  };
}

export function describeMachine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  return `${model}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export function computeRatios(result: BenchResult): Ratios {
  const pg = pgMsPerTransaction([result.pgbench, result.pgbenchAfter]);
  const s = result.scenarios;
  const argon2 = [result.argon2, result.argon2After];
  return {
    pgMsPerTransaction: pg,
    completion: inTpcbTransactions(s['combine-complete']?.cpu ?? null, pg),
    cashout: inTpcbTransactions(s['cash-out']?.cpu ?? null, pg),
    purchase: inTpcbTransactions(s.purchase?.cpu ?? null, pg),
    completionInRows: inRequiredRows(s['combine-complete']?.cpu ?? null, [result.rows?.completion ?? null, result.rowsAfter?.completion ?? null]),
    cashoutInRows: inRequiredRows(s['cash-out']?.cpu ?? null, [result.rows?.cashout ?? null, result.rowsAfter?.cashout ?? null]),
    cardList: againstBareRoute(s['list-cards']?.cpu ?? null, [result.bare?.cpu ?? null, result.bareAfter?.cpu ?? null]),
    signInShare: s['sign-in'] ? signInShare(s['sign-in'].rps, argon2) : null,
    signInNonHashMs: nonHashMs(s['sign-in']?.cpu ?? null, argon2),
  };
}

const f2 = (v: number) => v.toFixed(2);
const n = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const opt = (value: number | null, digits = 2, unit = '') => (value === null ? 'n/a' : `${n(value, digits)}${unit}`);

function floodFloors(name: string, flood: FloodResult, streams: string[], signInMaxP99: number | null): Floor[] {
  const floors: Floor[] = [];
  for (const stream of streams) {
    const unloaded = flood.unloaded[stream];
    const loaded = flood.loaded[stream];
    const factor = isolationFactor(unloaded?.p99, loaded?.p99);
    if (factor !== null && unloaded && loaded) {
      floors.push({
        scenario: name,
        what: `${stream} p99 under the flood <= ${FLOORS.isolationMaxFactor}x unloaded`,
        value: `${f2(loaded.p99)} ms vs ${f2(unloaded.p99)} ms (${f2(factor)}x)`,
        met: factor <= FLOORS.isolationMaxFactor,
      });
    }
  }
  if (signInMaxP99 !== null && flood.loaded['sign in']) {
    const p99 = flood.loaded['sign in'].p99;
    floors.push({ scenario: name, what: `honest sign-in p99 under the flood <= ${signInMaxP99} ms`, value: `${p99.toFixed(0)} ms`, met: p99 <= signInMaxP99 });
  }
  const refused = [...Object.values(flood.unloaded), ...Object.values(flood.loaded)].reduce((sum, f) => sum + (f.sent - f.ok), 0);
  floors.push({ scenario: name, what: 'every honest request answered 2xx', value: `${refused} not`, met: refused === 0 });
  return floors;
}

/**
 * What `--strict` enforces (decision 187): no money answer more than 5% dearer than the ref
 * (`--against`), p99 < 100 ms at half the capacity for every answer but sign-in, and isolation.
 * The ratios to the yardsticks are headroom, reported in the scenarios' table and judged by nobody.
 */
export function evaluateFloors(result: BenchResult): Floor[] {
  const floors: Floor[] = [...abFloors(result.comparisons, result.allowDearer)];
  for (const name of LATENCY_SCENARIOS) {
    const figures = result.latency[name];
    if (!figures) continue;
    const refused = figures.sent - figures.ok;
    floors.push({
      scenario: name,
      what: `p99 < ${FLOORS.p99MaxMs} ms at ${n(figures.rate, 0)}/s (${figures.capped ? "the sender's most" : 'half the capacity'}), every answer 2xx`,
      value: `${n(figures.p99, 1)} ms${refused ? `, ${refused} not 2xx` : ''}`,
      met: figures.p99 < FLOORS.p99MaxMs && refused === 0,
    });
  }
  if (result.isolation) floors.push(...floodFloors('isolation', result.isolation, ['list cards', 'cash out'], null));
  if (result.attack) floors.push(...floodFloors('attack', result.attack, ['list cards', 'cash out'], FLOORS.floodSignInMaxP99Ms));
  return floors;
}

const inRows = (value: number | null) => (value === null ? '' : `; ${n(value, 2)}× its required rows`);

function honestRow(phase: string, stream: string, f: HonestFigures | undefined): string {
  if (!f) return `| ${phase} | ${stream} | n/a | | | | |`;
  const failed = Object.entries(f.failed).map(([status, count]) => `${count}× ${status}`).join(', ') || '0';
  return `| ${phase} | ${stream} | ${f.sent} | ${n(f.p50, 1)} | ${n(f.p99, 1)} | ${n(f.max, 1)} | ${failed} |`;
}

function floodSection(title: string, flood: FloodResult): string[] {
  const lines = [`### ${title}`, ''];
  const rates = Object.entries(flood.rates).map(([k, v]) => `${k} ${n(v, 1)}/s`).join(', ');
  lines.push(`Honest traffic at a steady rate (${rates}), ${flood.seconds} s without the flood, then ${flood.seconds} s with it.`);
  lines.push('');
  lines.push('| phase | honest request | sent | p50 ms | p99 ms | max ms | not 2xx |');
  lines.push('|---|---|---:|---:|---:|---:|---|');
  for (const stream of Object.keys(flood.rates)) lines.push(honestRow('unloaded', stream, flood.unloaded[stream]));
  for (const stream of Object.keys(flood.rates)) lines.push(honestRow('flood', stream, flood.loaded[stream]));
  const statuses = Object.entries(flood.flood.statuses).map(([status, count]) => `${n(count)}× ${status}`).join(', ');
  const cpu = flood.flood.cpu;
  lines.push('');
  lines.push(`The flood: ${n(flood.flood.requests)} requests (${statuses}), p99 ${n(flood.flood.p99)} ms${cpu ? `; server CPU meanwhile ${n(cpu.serverMs * flood.flood.rps * flood.flood.durationSeconds, 0)} ms` : ''}.`);
  lines.push('');
  return lines;
}

export function formatReport(result: BenchResult): string {
  const lines: string[] = [];
  const r = result.ratios;
  lines.push(`## PayWeave benchmark (${result.mode}) — ${result.date}`);
  lines.push('');
  lines.push(`- machine: ${result.machine}`);
  lines.push(`- database: ${result.postgres}`);
  lines.push(`- load: autocannon, ${result.options.connections} connections, ${result.options.warmupSeconds} s warm-up, ${result.options.measureSeconds} s measured (combine: a fixed number of prepared drafts)`);
  lines.push('');
  lines.push('### Yardsticks (same run: before and after the scenarios)');
  lines.push('');
  lines.push('| yardstick | when | rate | CPU per unit | p99 ms |');
  lines.push('|---|---|---:|---|---:|');
  for (const [when, p] of [['before', result.pgbench], ['after', result.pgbenchAfter]] as const) {
    if (p) lines.push(`| pgbench TPC-B-like, scale ${p.scale}, ${p.clients} clients, ${p.seconds} s | ${when} | ${n(p.tps)} tps | PostgreSQL ${p.cpu ? n(p.cpu.postgresMs, 3) : 'n/a'} ms per transaction (server-wide ${p.cpu ? n(p.cpu.postgresAllMs, 3) : 'n/a'}; ${p.cpu ? kernelShare(p.cpu) : 'n/a'} in the kernel) | ${n(p.p99, 1)} |`);
  }
  for (const [when, b] of [['before', result.bare], ['after', result.bareAfter]] as const) {
    if (b) lines.push(`| bare Fastify route (GET, JSON) | ${when} | ${n(b.rps)} req/s | server ${b.cpu ? n(b.cpu.serverMs, 4) : 'n/a'} ms per answer | ${n(b.p99)} |`);
  }
  for (const [when, a] of [['before', result.argon2], ['after', result.argon2After]] as const) {
    if (a) lines.push(`| argon2id verify (m 19 MiB, t 2, p 1), ${a.cores} threads | ${when} | ${n(a.rate, 1)}/s | ${n(a.cpuMsPerVerification, 2)} ms per verification | |`);
  }
  for (const [when, rows] of [['before', result.rows], ['after', result.rowsAfter]] as const) {
    if (!rows) continue;
    for (const [what, figures] of [['a cash-out', rows.cashout], ['a completion of 2 sources', rows.completion]] as const) {
      lines.push(`| the rows ${what} must write, alone (pgbench, 32 clients, ${rows.seconds} s) | ${when} | ${n(figures.statements / rows.seconds)}/s | PostgreSQL ${n(figures.postgresMs, 3)} ms per statement (${kernelShare({ postgresMs: figures.postgresMs, postgresSystemMs: figures.postgresSystemMs })} in the kernel) | |`);
    }
  }
  lines.push('');
  lines.push(`PostgreSQL CPU per TPC-B transaction, both runs pooled: **${opt(r.pgMsPerTransaction, 3, ' ms')}**.`);
  lines.push('');
  lines.push(`### Scenarios${result.ab ? ' (this tree, its rounds pooled)' : ''}`);
  lines.push('');
  lines.push(`At ${result.options.connections} connections, saturating: the answers/s are the capacity; the p99 there is the queue (the floor is taken at half the capacity, below).`);
  lines.push('');
  lines.push('| scenario | answers/s | p50 ms | p99 ms | not 2xx | CPU ms per answer: PostgreSQL (server-wide; share in the kernel) / server / load | headroom (docs/rules.md#perf-headroom, not enforced) |');
  lines.push('|---|---:|---:|---:|---|---|---|');
  for (const [name, f] of Object.entries(result.scenarios) as Array<[ScenarioName, Figures]>) {
    const cpu = f.cpu ? `${n(f.cpu.postgresMs, 3)} (${n(f.cpu.postgresAllMs, 3)}; ${kernelShare(f.cpu)}) / ${n(f.cpu.serverMs, 3)} / ${n(f.cpu.benchMs, 3)}` : 'n/a';
    const ratio =
      name === 'combine-complete'
        ? `${opt(r.completion)} TPC-B transactions${inRows(r.completionInRows)}`
        : name === 'cash-out'
          ? `${opt(r.cashout)} TPC-B transactions${inRows(r.cashoutInRows)}`
          : name === 'purchase'
            ? `${opt(r.purchase)} TPC-B transactions`
          : name === 'list-cards'
            ? `${opt(r.cardList)}× the bare route`
            : `${r.signInShare === null ? 'n/a' : `${n(r.signInShare * 100, 1)}%`} of argon2id rate; ${opt(r.signInNonHashMs, 2, ' ms')} beyond the hash`;
    const shed = f.statuses['503'] ? ` (${n(f.statuses['503'])}× 503 shed)` : '';
    lines.push(`| ${SCENARIO_LABELS[name]} | ${n(f.rps)} | ${n(f.p50)} | ${n(f.p99)} | ${f.non2xx + f.errors}${shed} | ${cpu} | ${ratio} |`);
  }
  lines.push('');
  lines.push(...latencySection(result.latency, SCENARIO_LABELS));
  if (result.ab) lines.push(...abSection(result.ab, result.comparisons, SCENARIO_LABELS));
  if (result.isolation) lines.push(...floodSection('Isolation: a sign-in flood beside card lists and cash-outs', result.isolation));
  if (result.attack) lines.push(...floodSection('Attack: 16 addresses regenerating recovery codes and guessing passwords, rate limits on', result.attack));
  lines.push(`### Floors (${result.mode === 'smoke' ? 'a smoke enforces none' : 'what --strict enforces'})`);
  lines.push('');
  for (const floor of result.floors) lines.push(`- ${floor.met ? 'met' : '**MISSED**'}: ${floor.scenario}: ${floor.what} (${floor.value})`);
  lines.push('');
  const missed = result.floors.filter((f) => !f.met);
  if (result.mode === 'smoke') lines.push('Smoke run: durations too short to mean anything; floors not enforced.');
  const missedLabel = result.mode === 'smoke' ? 'Floors not reached by this smoke (not enforced)' : 'Floors missed';
  lines.push(missed.length === 0 ? 'Every floor met.' : `${missedLabel} (${missed.length}): ${missed.map((f) => `${f.scenario}: ${f.what}`).join('; ')}`);
  if (!result.ab && result.mode === 'full') lines.push('', 'No A/B comparison in this run: `--against <ref>` judges a change against main (docs/rules.md#perf-same-run).');
  if (r.completionInRows !== null || r.cashoutInRows !== null) {
    lines.push('');
    lines.push(`Against their own required rows, measured alone in this run (headroom, not a floor; decision 155): completion ${opt(r.completionInRows)}×, cash-out ${opt(r.cashoutInRows)}×.`);
  }
  return lines.join('\n');
}
