import { describe, expect, it } from 'vitest';
import { latencyRate, latencyRequestCount, LATENCY_MAX_RATE } from './latency';
import { parseOptions } from './options';

describe('the options of one run', () => {
  it('alone: one round of 5 s warm-up and 15 s measured, nothing enforced', () => {
    const options = parseOptions([], {});
    expect(options).toMatchObject({ against: undefined, rounds: 1, strict: false, warmupSeconds: 5, measureSeconds: 15, latencySeconds: 10, allowDearer: [] });
  });

  it('--against: four rounds of shorter windows, each way of writing the flag', () => {
    expect(parseOptions(['--against', 'main', '--strict'], {})).toMatchObject({ against: 'main', rounds: 4, strict: true, warmupSeconds: 3, measureSeconds: 10, draftsPerUser: 16, warmupDraftsPerUser: 4 });
    expect(parseOptions(['--against=HEAD~1', '--rounds', '6', '--allow-dearer', 'cash-out, purchase'], {})).toMatchObject({ against: 'HEAD~1', rounds: 6, allowDearer: ['cash-out', 'purchase'] });
    // The smoke runs one pair of seconds-long windows; the environment overrides any default.
    expect(parseOptions(['--smoke', '--against', 'HEAD'], {})).toMatchObject({ rounds: 1, measureSeconds: 1.5 });
    expect(parseOptions(['--against', 'main'], { BENCH_ROUNDS: '3', BENCH_SECONDS: '20' })).toMatchObject({ rounds: 3, measureSeconds: 20 });
  });

  it('refuses a flag without its value and a round count that is not a whole number', () => {
    expect(() => parseOptions(['--against'], {})).toThrow('--against needs a value');
    expect(() => parseOptions(['--against', '--strict'], {})).toThrow('--against needs a value');
    expect(() => parseOptions(['--rounds', '1.5'], {})).toThrow('--rounds must be a whole number');
    expect(() => parseOptions([], { BENCH_SECONDS: '0' })).toThrow('BENCH_SECONDS must be a positive number');
  });

  it('the latency runs send half the capacity, at most the sender\'s ceiling', () => {
    expect(latencyRate(948)).toBe(474);
    expect(latencyRate(40_000)).toBe(LATENCY_MAX_RATE);
    expect(latencyRate(40_000, 8_000)).toBe(8_000);
    expect(latencyRequestCount(287.4, 10)).toBe(2_874);
    expect(latencyRequestCount(0.05, 10)).toBe(1);
    expect(parseOptions([], { BENCH_LATENCY_MAX_RATE: '8000' }).latencyMaxRate).toBe(8_000);
  });
});
