import { describe, expect, it } from 'vitest';
import type { PgbenchFigures } from './ceilings';
import type { Figures } from './load';
import { ceilingDrift, ceilingRate, evaluateFloors, formatReport, newBenchResult, withRatios, type BenchResult } from './report';

const pgbench = (tps: number): PgbenchFigures => ({ tps, p50: 5, p99: 15, mean: 6, transactions: tps * 15, failed: 0, scale: 32, clients: 32, seconds: 15 });
const figures = (rps: number, p99 = 50): Figures => ({ rps, p50: 20, p99, mean: 25, max: 90, requests: rps * 15, non2xx: 0, errors: 0, durationSeconds: 15, failures: [], cpu: { postgresMs: 1, serverMs: 0.5, benchMs: 0.2 } });

function result(overrides: Partial<BenchResult>): BenchResult {
  const about = { mode: 'full', date: '2026-11-23T00:00:00.000Z', machine: 'test', postgres: 'test', options: { connections: 32, warmupSeconds: 5, measureSeconds: 15, pgbenchScale: 32 } } as const;
  return { ...newBenchResult(about), ...overrides };
}

describe('the ceilings bracket the scenarios', () => {
  it('a ratio is taken against the mean of the measurements before and after', () => {
    const run = result({ pgbench: pgbench(1_000), pgbenchAfter: pgbench(3_000), scenarios: { 'cash-out': { ...figures(900), ratio: null } } });
    expect(ceilingRate(run, 'pgbench')).toBe(2_000);
    expect(withRatios(run)['cash-out']?.ratio).toBeCloseTo(0.45);
  });

  it('one measurement is the ceiling itself; none gives no ratio', () => {
    expect(ceilingRate(result({ pgbench: pgbench(1_200) }), 'pgbench')).toBe(1_200);
    expect(ceilingDrift(result({ pgbench: pgbench(1_200) }), 'pgbench')).toBeNull();
    const skipped = result({ scenarios: { 'cash-out': { ...figures(900), ratio: null } } });
    expect(withRatios(skipped)['cash-out']?.ratio).toBeNull();
    expect(evaluateFloors({ ...skipped, scenarios: withRatios(skipped) }).map((f) => f.what)).toEqual(['cash-out p99 < 100 ms']);
  });

  it('the floors follow the bracketed ratio', () => {
    // 900/s is 45% of the mean (met) although it is only 30% of the faster measurement.
    const run = result({ pgbench: pgbench(1_000), pgbenchAfter: pgbench(3_000), scenarios: { 'cash-out': { ...figures(900), ratio: null } } });
    const floors = evaluateFloors({ ...run, scenarios: withRatios(run) });
    expect(floors.find((f) => f.what.includes('40%'))?.met).toBe(true);
  });

  it('the report says when the host moved too much for the ratios to be read closely', () => {
    const drifting = result({ pgbench: pgbench(1_000), pgbenchAfter: pgbench(3_000), bare: figures(50_000), bareAfter: figures(52_000) });
    expect(ceilingDrift(drifting, 'pgbench')).toBe(1);
    const report = formatReport(drifting);
    expect(report).toMatch(/pgbench: the mean, 2,000\/s; its two measurements lie 100% apart \(\*\*over 20%/);
    expect(report).toMatch(/the bare route: the mean, 51,000\/s; its two measurements lie 4% apart\.$/m);
  });

  it('each scenario shows the CPU one answer cost', () => {
    const run = result({ pgbench: pgbench(1_000), scenarios: { 'cash-out': { ...figures(900), ratio: null } } });
    expect(formatReport({ ...run, scenarios: withRatios(run) })).toContain('| 1.00 / 0.50 / 0.20 |');
  });
});
