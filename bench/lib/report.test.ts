import { describe, expect, it } from 'vitest';
import type { Argon2Figures } from './argon2-rate';
import type { PgbenchFigures } from './ceilings';
import type { FloodResult } from './flood';
import type { HonestFigures } from './honest';
import type { Figures } from './load';
import { compareRuns } from './ab';
import type { LatencyFigures } from './latency';
import { computeRatios, evaluateFloors, formatReport, kernelShare, newBenchResult, type BenchResult } from './report';

const pgbench = (pgMs: number, transactions = 20_000): PgbenchFigures => ({ tps: transactions / 15, p50: 5, p99: 15, mean: 6, transactions, failed: 0, scale: 32, clients: 32, seconds: 15, cpu: { postgresMs: pgMs, postgresSystemMs: pgMs * 0.3, postgresAllMs: pgMs * 1.1 } });
const figures = (rps: number, postgresMs: number, serverMs: number, p99 = 50): Figures => ({
  rps,
  p50: 20,
  p99,
  mean: 25,
  max: 90,
  requests: rps * 15,
  non2xx: 0,
  errors: 0,
  durationSeconds: 15,
  failures: [],
  cpu: { postgresMs, postgresSystemMs: postgresMs * 0.1, postgresAllMs: postgresMs, serverMs, benchMs: 0.2 },
  statuses: { 200: rps * 15 },
});
const argon2 = (rate: number, cpuMs: number): Argon2Figures => ({ rate, cpuMsPerVerification: cpuMs, verifications: rate * 8, seconds: 8, cores: 2 });
const honest = (p99: number, failed: Record<string, number> = {}): HonestFigures => {
  const count = Object.values(failed).reduce((s, v) => s + v, 0);
  return { sent: 100, ok: 100 - count, failed, p50: p99 / 2, p99, max: p99 * 1.5, examples: [] };
};
const flood = (unloaded: Record<string, number>, loaded: Record<string, number>, failed: Record<string, number> = {}): FloodResult => ({
  unloaded: Object.fromEntries(Object.entries(unloaded).map(([k, v]) => [k, honest(v)])),
  loaded: Object.fromEntries(Object.entries(loaded).map(([k, v]) => [k, honest(v, k === 'sign in' ? failed : {})])),
  flood: figures(0, 0, 0),
  rates: Object.fromEntries(Object.keys(unloaded).map((k) => [k, 10])),
  seconds: 15,
});

function run(overrides: Partial<BenchResult>): BenchResult {
  const about = { mode: 'full', date: '2026-11-25T00:00:00.000Z', machine: 'test', postgres: 'test', options: { connections: 32, warmupSeconds: 5, measureSeconds: 15, pgbenchScale: 32, isolationSeconds: 15 } } as const;
  const result = { ...newBenchResult(about), ...overrides };
  result.ratios = computeRatios(result);
  result.floors = evaluateFloors(result);
  return result;
}


describe('the report, and the floors --strict enforces (decision 187)', () => {
  const base = {
    pgbench: pgbench(0.38),
    pgbenchAfter: pgbench(0.38),
    bare: figures(30_000, 0, 0.02),
    bareAfter: figures(30_000, 0, 0.02),
    argon2: argon2(180, 10.2),
    argon2After: argon2(180, 10.2),
  };

  it('the headroom ratios are reported, and none of them is a floor (decision 187)', () => {
    const result = run({
      ...base,
      scenarios: {
        // Far past the retired floors of decision 060: 7.08 TPC-B transactions, 4x the bare route, 80% of argon2id.
        'combine-complete': figures(400, 1.61, 1.08),
        'cash-out': figures(1_000, 0.64, 0.33),
        purchase: figures(900, 0.7, 0.4),
        'list-cards': figures(8_000, 0, 0.08),
        'sign-in': figures(144, 1.13, 12.3),
      },
    });
    expect(result.ratios.completion).toBeCloseTo(7.08, 2);
    expect(result.ratios.purchase).toBeCloseTo(2.89, 2);
    expect(result.ratios.cardList).toBeCloseTo(4);
    expect(result.floors).toEqual([]);
    const report = formatReport(result);
    expect(report).toContain('7.08 TPC-B transactions');
    expect(report).toContain('| buy with a card (POST /api/cards/:id/purchases) | 900 |');
    expect(report).toContain('2.89 TPC-B transactions |');
    expect(report).toContain('4.00× the bare route');
    expect(report).toContain('80.0% of argon2id rate; 2.10 ms beyond the hash');
  });

  it('p99 < 100 ms is judged at half the capacity, for every answer but sign-in, and a refused answer misses it', () => {
    const latency = (p99: number, failed: Record<string, number> = {}): LatencyFigures => ({ ...honest(p99, failed), capacity: 1_000, rate: 500, capped: false, seconds: 10 });
    const result = run({
      // At saturation the cash-out's p99 was 180 ms: the queue, not the answer, and judged by nothing.
      scenarios: { 'cash-out': figures(1_000, 0.64, 0.33, 180) },
      latency: { 'cash-out': latency(80), purchase: latency(100), 'list-cards': latency(5, { 503: 1 }) },
    });
    expect(result.floors.map((f) => [f.scenario, f.met, f.value])).toEqual([
      ['list-cards', false, '5.0 ms, 1 not 2xx'],
      ['cash-out', true, '80.0 ms'],
      ['purchase', false, '100.0 ms'],
    ]);
    expect(result.floors[1]?.what).toBe('p99 < 100 ms at 500/s (half the capacity), every answer 2xx');
    expect(formatReport(result)).toContain('| cash out (POST /api/cashouts) | 1,000 | 500 | 100 | 40.0 | 80.0 | 120.0 | 0 |');
    // A card list's half capacity past what the sender can send alone is sent at its most, and says so.
    const capped = run({ latency: { 'list-cards': { ...latency(3), capacity: 40_000, rate: 5_000, capped: true } } });
    expect(capped.floors[0]?.what).toBe("p99 < 100 ms at 5,000/s (the sender's most), every answer 2xx");
    expect(formatReport(capped)).toContain('| list cards (GET /api/cards, 3 cards) | 40,000 | 5,000* | 100 |');
  });

  it('with --against, the report compares both versions round by round, and a money answer 5% dearer is a missed floor', () => {
    const result = run({
      ab: {
        against: { ref: 'main', commit: '0123456789abcdef', subject: 'the ref', dependencies: 'shared' },
        head: 'this tree, HEAD = fedcba9876 "the change"',
        rounds: 2,
        runs: { 'cash-out': { a: [figures(1_000, 0.6, 0.4), figures(1_000, 0.6, 0.4)], b: [figures(900, 0.7, 0.4), figures(950, 0.66, 0.4)] } },
      },
    });
    result.comparisons = compareRuns(result.ab?.runs ?? {});
    result.floors = evaluateFloors(result);
    expect(result.floors).toEqual([{ scenario: 'cash-out', what: "CPU per answer <= 1.05x the ref's (median of 2 pairs)", value: '1.080x', met: false }]);
    const report = formatReport(result);
    expect(report).toContain('- A: `main` = 0123456789 "the ref", built in a worktree (node_modules: shared)');
    expect(report).toContain('| cash out (POST /api/cashouts) | 1.000 | 1.080 | 1.100, 1.060 | **1.080** | 1,000 / 925 |');
    expect(report).toContain('**MISSED**: cash-out: CPU per answer <= 1.05x');
  });

  it('isolation: the p99 under the flood within twice the unloaded p99, and no honest request refused', () => {
    const held = run({ isolation: flood({ 'list cards': 3, 'cash out': 10 }, { 'list cards': 6, 'cash out': 19 }) });
    expect(held.floors.filter((f) => !f.met)).toEqual([]);
    const broken = run({ isolation: flood({ 'list cards': 3, 'cash out': 10 }, { 'list cards': 6.1, 'cash out': 19 }) });
    expect(broken.floors.filter((f) => !f.met).map((f) => f.what)).toEqual(['list cards p99 under the flood <= 2x unloaded']);
  });

  it('attack: an honest sign-in within 1 s at p99, and a refused honest sign-in is a missed floor', () => {
    const held = run({ attack: flood({ 'list cards': 3, 'cash out': 10, 'sign in': 300 }, { 'list cards': 5, 'cash out': 12, 'sign in': 1_000 }) });
    expect(held.floors.filter((f) => !f.met)).toEqual([]);
    const slow = run({ attack: flood({ 'list cards': 3, 'cash out': 10, 'sign in': 300 }, { 'list cards': 5, 'cash out': 12, 'sign in': 6_700 }, { 429: 3 }) });
    expect(slow.floors.filter((f) => !f.met).map((f) => f.what)).toEqual(['honest sign-in p99 under the flood <= 1000 ms', 'every honest request answered 2xx']);
    expect(formatReport(slow)).toContain('| flood | sign in | 100 | 3,350.0 | 6,700.0 | 10,050.0 | 3× 429 |');
  });

  it('the report shows the yardsticks and each ratio', () => {
    const report = formatReport(run({ ...base, scenarios: { 'cash-out': figures(1_000, 0.64, 0.33) } }));
    expect(report).toContain('PostgreSQL CPU per TPC-B transaction, both runs pooled: **0.380 ms**');
    expect(report).toContain('2.55 TPC-B transactions');
    expect(report).toContain('No A/B comparison in this run');
  });

  it('the report weighs the money answers against their own required rows too, and enforces nothing on it (decision 155)', () => {
    const rows = (cashoutMs: number, completionMs: number) => ({
      seconds: 15,
      cashout: { postgresMs: cashoutMs, postgresSystemMs: cashoutMs / 10, statements: 15_000 },
      completion: { postgresMs: completionMs, postgresSystemMs: completionMs / 10, statements: 6_000 },
    });
    // Cash-out rows 0.5 and 0.47 ms (pooled 0.485): 0.64 + 0.33 ms is 2x. Completion rows 0.9 ms: 1.61 + 1.08 ms is 2.99x.
    const result = run({ ...base, rows: rows(0.5, 0.9), rowsAfter: rows(0.47, 0.9), scenarios: { 'cash-out': figures(1_000, 0.64, 0.33), 'combine-complete': figures(300, 1.61, 1.08) } });
    expect(result.ratios.cashoutInRows).toBeCloseTo(2, 5);
    expect(result.ratios.completionInRows).toBeCloseTo(2.99, 2);
    const report = formatReport(result);
    expect(report).toContain('2.55 TPC-B transactions; 2.00× its required rows');
    expect(report).toContain('| the rows a cash-out must write, alone (pgbench, 32 clients, 15 s) | before | 1,000/s | PostgreSQL 0.500 ms per statement (10% in the kernel) | |');
    expect(report).toContain('(headroom, not a floor; decision 155): completion 2.99×, cash-out 2.00×.');
    expect(result.floors.some((f) => f.what.includes('rows'))).toBe(false);
    // Without the rows measured (--skip-ceilings), nothing is said of them.
    expect(formatReport(run({ scenarios: { 'cash-out': figures(1_000, 0.64, 0.33) } }))).not.toContain('required rows');
  });

  it('the report shows how much of PostgreSQL\'s CPU went to the kernel, for the yardstick and each scenario', () => {
    const report = formatReport(run({ ...base, scenarios: { 'cash-out': figures(1_000, 0.64, 0.33) } }));
    expect(report).toContain('PostgreSQL 0.380 ms per transaction (server-wide 0.418; 30% in the kernel)');
    expect(report).toContain('| 0.640 (0.640; 10%) / 0.330 / 0.200 |');
    expect(kernelShare({ postgresMs: 0, postgresSystemMs: 0 })).toBe('n/a');
  });
});
