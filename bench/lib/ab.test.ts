import { describe, expect, it } from 'vitest';
import { abFloors, compareRuns, cpuPerAnswer, median, pairRatios, poolRounds } from './ab';
import type { Figures } from './load';

const figures = (postgresMs: number, serverMs: number, rps = 100, extra: Partial<Figures> = {}): Figures => ({
  rps,
  p50: 10,
  p99: 40,
  mean: 12,
  max: 60,
  requests: rps * 10,
  non2xx: 0,
  errors: 0,
  durationSeconds: 10,
  failures: [],
  cpu: { postgresMs, postgresSystemMs: postgresMs / 10, postgresAllMs: postgresMs, serverMs, benchMs: 0.1 },
  statuses: { 201: rps * 10 },
  ...extra,
});

describe('the A/B comparison of docs/rules.md#perf-same-run', () => {
  it('weighs an answer by its PostgreSQL and server CPU', () => {
    expect(cpuPerAnswer(figures(1.5, 0.5))).toBeCloseTo(2);
    expect(cpuPerAnswer(figures(1, 1, 100, { cpu: null }))).toBeNull();
    expect(cpuPerAnswer(undefined)).toBeNull();
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('pairs round r of A with round r of B, and skips a round missing either side', () => {
    expect(pairRatios([2, 2, 4], [2.1, 1.9, 4.4])).toEqual([expect.closeTo(1.05), expect.closeTo(0.95), expect.closeTo(1.1)]);
    expect(pairRatios([2, null, 2, 0], [2.2, 2, null, 1])).toEqual([expect.closeTo(1.1)]);
    // A round that only one side reached (a failure midway) makes no pair.
    expect(pairRatios([2, 2, 2], [3, 3])).toHaveLength(2);
  });

  it('one disturbed round does not move the verdict: the median of the pairs does', () => {
    // Round 2's B window met a neighbour's burst (+60%); the other pairs are 1-4% dearer.
    const [cashout] = compareRuns({
      'cash-out': {
        a: [figures(1, 1), figures(1, 1), figures(1, 1), figures(1, 1)],
        b: [figures(1.02, 1), figures(2.2, 1), figures(1.04, 1.04), figures(1.04, 1)],
      },
    });
    expect(cashout?.ratios).toHaveLength(4);
    expect(cashout?.median).toBeCloseTo(1.03, 6);
    expect(cashout?.aMs).toBeCloseTo(2);
    expect(cashout?.bMs).toBeCloseTo(2.06);
    expect(abFloors(cashout ? [cashout] : [], [])).toEqual([{ scenario: 'cash-out', what: "CPU per answer <= 1.05x the ref's (median of 4 pairs)", value: '1.030x', met: true }]);
  });

  it('a money answer more than 5% dearer misses, unless --allow-dearer names it; the others are reported only', () => {
    const comparisons = compareRuns({
      'combine-complete': { a: [figures(2, 1), figures(2, 1)], b: [figures(2.2, 1), figures(2.1, 1.1)] },
      purchase: { a: [figures(1, 1), figures(1, 1)], b: [figures(1.04, 1), figures(1.04, 1.04)] },
      'cash-out': { a: [figures(1, 1)], b: [figures(1.1, 1.1)] },
      'list-cards': { a: [figures(0, 0.05)], b: [figures(0, 0.1)] },
      'sign-in': { a: [figures(1, 10)], b: [figures(1, 20)] },
    });
    const floors = abFloors(comparisons, ['cash-out']);
    expect(floors.map((f) => [f.scenario, f.met, f.value])).toEqual([
      ['combine-complete', false, '1.067x'],
      // 2.04 and 2.08 against 2: one pair 4% dearer, but the median is 1.03, within.
      ['purchase', true, '1.030x'],
      ['cash-out', true, '1.100x, allowed by --allow-dearer'],
    ]);
  });

  it('a money answer without CPU figures on both sides is not shown to be within 5%', () => {
    const floors = abFloors(compareRuns({ 'cash-out': { a: [figures(1, 1, 100, { cpu: null })], b: [figures(1, 1)] } }), []);
    expect(floors).toEqual([{ scenario: 'cash-out', what: "CPU per answer <= 1.05x the ref's (median of 0 pairs)", value: 'no CPU figures on both sides', met: false }]);
  });

  it('pools one version\'s rounds: CPU per answer over all the answers, the rate over all the time', () => {
    // 1,000 answers at 2 ms and 3,000 at 1 ms: 5,000 ms over 4,000 answers.
    const pooled = poolRounds([figures(1, 1, 100, { p99: 30 }), figures(0.5, 0.5, 300, { p99: 50, statuses: { 201: 3_000, 409: 1 }, non2xx: 1 })]);
    expect(pooled?.cpu?.postgresMs).toBeCloseTo(0.625);
    expect((pooled?.cpu?.postgresMs ?? 0) + (pooled?.cpu?.serverMs ?? 0)).toBeCloseTo(1.25);
    expect(pooled?.rps).toBeCloseTo(200);
    expect(pooled?.p99).toBe(40);
    expect(pooled?.non2xx).toBe(1);
    expect(pooled?.statuses).toEqual({ 201: 4_000, 409: 1 });
    const one = figures(1, 1);
    expect(poolRounds([one])).toBe(one);
    expect(poolRounds([])).toBeUndefined();
    expect(poolRounds([one, figures(1, 1, 100, { cpu: null })])?.cpu).toBeNull();
  });
});
