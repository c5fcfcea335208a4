import { describe, expect, it } from 'vitest';
import { cpuPerRequest } from './cpu';
import { readStat } from './pg-cpu';

describe('CPU per answer', () => {
  it('divides the CPU of a window by the answers it gave', () => {
    expect(cpuPerRequest({ postgresMs: 2_000, postgresSystemMs: 300, postgresAllMs: 2_500, serverMs: 1_000, benchMs: 200 }, 1_000)).toEqual({
      postgresMs: 2,
      postgresSystemMs: 0.3,
      postgresAllMs: 2.5,
      serverMs: 1,
      benchMs: 0.2,
    });
  });

  it('gives nothing without answers or without figures', () => {
    expect(cpuPerRequest({ postgresMs: 1, postgresSystemMs: 0, postgresAllMs: 1, serverMs: 1, benchMs: 1 }, 0)).toBeNull();
    expect(cpuPerRequest(null, 10)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('reads a process CPU time and its parent from /proc', () => {
    const before = readStat(process.pid);
    // Spin until this process has used 150 ms of CPU by its own account (however busy the machine,
    // which may give it only part of a core), then compare what /proc says.
    const startUsage = process.cpuUsage();
    const giveUpAt = performance.now() + 10_000;
    let spin = 0;
    while (process.cpuUsage(startUsage).user < 150_000 && performance.now() < giveUpAt) spin += Math.sqrt(spin + 1);
    const after = readStat(process.pid);
    expect(spin).toBeGreaterThan(0);
    expect(after?.ppid).toBe(process.ppid);
    // /proc counts in 10 ms ticks: 150 ms of CPU shows as well over 100 ms.
    expect((after?.ms ?? 0) - (before?.ms ?? 0)).toBeGreaterThanOrEqual(100);
    // The kernel's part is within the total (the spin makes no system calls, so most of it is user time).
    expect(after?.systemMs).toBeGreaterThanOrEqual(0);
    expect((after?.systemMs ?? 0) - (before?.systemMs ?? 0)).toBeLessThan((after?.ms ?? 0) - (before?.ms ?? 0));
    expect(readStat(2 ** 22 + 1)).toBeNull();
  });
});
