import { describe, expect, it } from 'vitest';
import { cpuPerRequest, sampleCpu } from './cpu';

describe('CPU per answer', () => {
  it('divides the CPU spent between two samples by the answers', () => {
    const before = { postgresMs: 1_000, serverMs: 400, benchMs: 100 };
    const after = { postgresMs: 3_000, serverMs: 1_400, benchMs: 300 };
    expect(cpuPerRequest(before, after, 1_000)).toEqual({ postgresMs: 2, serverMs: 1, benchMs: 0.2 });
  });

  it('gives nothing without answers or without PostgreSQL on the machine', () => {
    expect(cpuPerRequest({ postgresMs: 1, serverMs: 1, benchMs: 1 }, { postgresMs: 2, serverMs: 2, benchMs: 2 }, 0)).toBeNull();
    expect(cpuPerRequest({ postgresMs: 0, serverMs: 0, benchMs: 0 }, { postgresMs: 0, serverMs: 5, benchMs: 5 }, 10)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('reads a process CPU time from /proc', () => {
    const before = sampleCpu(process.pid);
    // Spin until this process has used 150 ms of CPU by its own account (however busy the machine,
    // which may give it only part of a core), then compare what /proc says.
    const startUsage = process.cpuUsage();
    const giveUpAt = performance.now() + 10_000;
    let spin = 0;
    while (process.cpuUsage(startUsage).user < 150_000 && performance.now() < giveUpAt) spin += Math.sqrt(spin + 1);
    const after = sampleCpu(process.pid);
    expect(spin).toBeGreaterThan(0);
    // /proc counts in 10 ms ticks: 150 ms of CPU shows as well over 100 ms.
    expect(after.serverMs - before.serverMs).toBeGreaterThanOrEqual(100);
    expect(after.benchMs - before.benchMs).toBeGreaterThanOrEqual(100);
  });
});
