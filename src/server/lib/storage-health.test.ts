import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStorageFullError, StorageHealth } from './storage-health';

const dir = mkdtempSync(path.join(tmpdir(), 'storage-health-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('storage health', () => {
  it('knows a full disk by SQLSTATE 53100, ENOSPC or PostgreSQL’s words, through the query wrapper', () => {
    expect(isStorageFullError({ message: 'Failed query: insert ...', cause: { code: '53100', message: 'could not extend file "base/1/2": No space left on device' } })).toBe(true);
    expect(isStorageFullError(Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' }))).toBe(true);
    expect(isStorageFullError(new Error('could not write to file "pg_wal/xlogtemp.9": No space left on device'))).toBe(true);
    expect(isStorageFullError({ code: '57P01', message: 'terminating connection due to administrator command' })).toBe(false);
    expect(isStorageFullError(new Error('duplicate key value violates unique constraint'))).toBe(false);
  });

  it('space under the reserve on the WAL’s file system: not writable, at once, without a probe; told once each way', async () => {
    let probes = 0;
    const changes: boolean[] = [];
    const time = clock();
    const health = new StorageHealth({
      walDir: dir,
      reserveBytes: Number.MAX_SAFE_INTEGER,
      probe: async () => void (probes += 1),
      onChange: (low) => changes.push(low !== undefined),
      now: time.now,
    });
    expect(health.lowSpace()).toMatchObject({ path: dir, reserveBytes: Number.MAX_SAFE_INTEGER });
    expect(await health.writable()).toBe(false);
    time.advance(300);
    expect(health.lowSpace()).toBeDefined();
    expect(probes).toBe(0);
    expect(changes).toEqual([true]);

    const roomy = new StorageHealth({ walDir: dir, reserveBytes: 0, probe: async () => {}, now: time.now });
    expect(roomy.lowSpace()).toBeUndefined();
    const none = new StorageHealth({ probe: async () => {}, now: time.now });
    expect(none.lowSpace()).toBeUndefined();
  });

  it('the last write stands for a while; without one, a probe decides, at most once a second and one at a time', async () => {
    let probes = 0;
    let full = false;
    const time = clock();
    const health = new StorageHealth({
      probe: async () => {
        probes += 1;
        if (full) throw Object.assign(new Error('could not extend file'), { code: '53100' });
      },
      now: time.now,
    });
    // Nothing known: one probe, shared by the callers that ask meanwhile.
    expect(await Promise.all([health.writable(), health.writable()])).toEqual([true, true]);
    expect(probes).toBe(1);
    // A request's write failed for lack of space: not writable for 5 s, no probe.
    health.noteWriteFailed();
    time.advance(4_000);
    expect(await health.writable()).toBe(false);
    expect(probes).toBe(1);
    // Then the probe asks again, and says what it finds.
    full = true;
    time.advance(1_500);
    expect(await health.writable()).toBe(false);
    expect(probes).toBe(2);
    full = false;
    // A request's write succeeded: writable, no probe, for 10 s.
    health.noteWriteSucceeded();
    time.advance(9_000);
    expect(await health.writable()).toBe(true);
    expect(probes).toBe(2);
    time.advance(2_000);
    expect(await health.writable()).toBe(true);
    expect(probes).toBe(3);
  });

  it('a probe that hangs counts as not writable after 2 s', async () => {
    const health = new StorageHealth({ probe: () => new Promise<void>(() => {}) });
    const started = Date.now();
    expect(await health.writable()).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });
});

describe('what the log says of a database error', () => {
  it("PostgreSQL's own code and message, found under the query wrapper", async () => {
    const { databaseErrorOf } = await import('../plugins/errors');
    const pgError = Object.assign(new Error('could not extend file "base/16384/16544": No space left on device'), {
      code: '53100',
      severity: 'ERROR',
      hint: 'Check free disk space.',
      routine: 'mdzeroextend',
    });
    const wrapped = Object.assign(new Error('Failed query: insert into journals ... params: ...'), { query: 'insert into journals ...', params: [], cause: pgError });
    expect(databaseErrorOf(wrapped)).toEqual({ code: '53100', message: pgError.message, severity: 'ERROR', hint: 'Check free disk space.', routine: 'mdzeroextend' });
    const socket = Object.assign(new Error('connect ENOENT /tmp/x/.s.PGSQL.5432'), { code: 'ENOENT', syscall: 'connect', address: '/tmp/x/.s.PGSQL.5432' });
    expect(databaseErrorOf(Object.assign(new Error('Failed query: select 1'), { cause: socket }))).toEqual({
      code: 'ENOENT',
      message: socket.message,
      syscall: 'connect',
      address: '/tmp/x/.s.PGSQL.5432',
    });
    expect(databaseErrorOf(new Error('plain'))).toBeUndefined();
  });
});
