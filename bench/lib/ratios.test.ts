import { describe, expect, it } from 'vitest';
import type { CpuMs } from './cpu';
import { againstBareRoute, inRequiredRows, inTpcbTransactions, isolationFactor, nonHashMs, pgMsPerTransaction, signInShare } from './ratios';

const cpu = (postgresMs: number, serverMs: number): CpuMs => ({ postgresMs, postgresSystemMs: postgresMs / 10, postgresAllMs: postgresMs, serverMs, benchMs: 0.1 });

describe('the ratios of docs/rules.md#perf-same-run', () => {
  it('PostgreSQL CPU per TPC-B transaction pools both pgbench runs by their transactions', () => {
    // 10,000 transactions at 0.4 ms and 30,000 at 0.36 ms: 14,800 ms over 40,000.
    expect(pgMsPerTransaction([{ transactions: 10_000, cpu: { postgresMs: 0.4 } }, { transactions: 30_000, cpu: { postgresMs: 0.36 } }])).toBeCloseTo(0.37);
    expect(pgMsPerTransaction([{ transactions: 10_000, cpu: { postgresMs: 0.4 } }, null])).toBeCloseTo(0.4);
    expect(pgMsPerTransaction([null, { transactions: 0, cpu: { postgresMs: 1 } }, { transactions: 5, cpu: null }])).toBeNull();
  });

  it('a completion or cash-out is weighed in TPC-B transactions of PostgreSQL CPU', () => {
    // The figures: a completion 1.61 + 1.08 ms against 0.38 ms is about 7.1; a cash-out 0.64 + 0.33 ms about 2.5.
    expect(inTpcbTransactions(cpu(1.61, 1.08), 0.38)).toBeCloseTo(7.08, 2);
    expect(inTpcbTransactions(cpu(0.64, 0.33), 0.38)).toBeCloseTo(2.55, 2);
    expect(inTpcbTransactions(null, 0.38)).toBeNull();
    expect(inTpcbTransactions(cpu(1, 1), null)).toBeNull();
  });

  it('a completion or cash-out is also weighed against its own required rows, pooled over their runs by statements (decision 155)', () => {
    // Rows at 0.5 ms (1,000 statements) and 0.8 ms (3,000): 2,900 ms over 4,000 is 0.725 ms; 1.45 + 0.725 ms is 3x that.
    expect(inRequiredRows(cpu(1.45, 0.725), [{ statements: 1_000, postgresMs: 0.5 }, { statements: 3_000, postgresMs: 0.8 }])).toBeCloseTo(3);
    expect(inRequiredRows(cpu(1.45, 0.725), [{ statements: 1_000, postgresMs: 0.725 }, null])).toBeCloseTo(3);
    expect(inRequiredRows(cpu(1, 1), [null, { statements: 0, postgresMs: 1 }])).toBeNull();
    expect(inRequiredRows(null, [{ statements: 1_000, postgresMs: 0.5 }])).toBeNull();
  });

  it('a card list is weighed against the bare route, the mean of its measurements', () => {
    // 0.07 ms against 0.0175 ms is 4x, the figure.
    expect(againstBareRoute(cpu(0, 0.07), [cpu(0, 0.015), cpu(0, 0.02)])).toBeCloseTo(4);
    expect(againstBareRoute(cpu(0, 0.07), [cpu(0, 0.0175), null])).toBeCloseTo(4);
    expect(againstBareRoute(cpu(0, 0.07), [null, cpu(0, 0)])).toBeNull();
  });

  it('sign-ins are a share of the host argon2id rate, and the CPU beyond one hash', () => {
    // 144 sign-ins/s against 181 verifications/s: 79.6%, under the 85% floor.
    expect(signInShare(144, [{ rate: 170, cpuMsPerVerification: 10 }, { rate: 192, cpuMsPerVerification: 10.4 }])).toBeCloseTo(0.7956, 3);
    expect(signInShare(144, [null, null])).toBeNull();
    // 12.3 ms of server CPU per sign-in against 10.2 ms per verification: 2.1 ms beyond the hash.
    expect(nonHashMs(cpu(1.13, 12.3), [{ rate: 181, cpuMsPerVerification: 10.2 }])).toBeCloseTo(2.1);
    expect(nonHashMs(null, [{ rate: 181, cpuMsPerVerification: 10.2 }])).toBeNull();
  });

  it('isolation compares the p99 under a flood with the p99 without it', () => {
    expect(isolationFactor(4, 7)).toBeCloseTo(1.75);
    expect(isolationFactor(0, 7)).toBeNull();
    expect(isolationFactor(undefined, 7)).toBeNull();
  });
});
