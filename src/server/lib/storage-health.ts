// Whether the database can write now (docs/decisions/181-storage-full-and-health.md): what
// GET /api/health says as `writable`, and the guard that keeps PostgreSQL's write-ahead log from
// filling up.
//
// PostgreSQL tells a full disk apart by where it happens. A table or index that cannot grow is an
// ordinary ERROR (SQLSTATE 53100 disk_full: "could not extend file"); the statement fails, nothing
// else does, and the errors plugin answers 503 storage_full. A WAL that cannot grow is a PANIC:
// the backend aborts, the postmaster drops every connection and recovers, and the end-of-recovery
// checkpoint, which needs WAL space too, fails, so PostgreSQL shuts down and does not come back
// until space is freed: reads stop with the writes. So the app, when it runs the database itself,
// refuses writes while the file system of pg_wal has less than WAL_RESERVE_BYTES free: PostgreSQL
// keeps the room it needs, and reads go on.
//
// `writable` is cheap and honest: space below the reserve says no at once (one statfs, at most every
// 250 ms); otherwise the outcome of the last write (a request's, or a probe's) if it is recent; and
// only when there is none, one probe (a one-row upsert, at most one a second, single flight).
import { statfsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * Four WAL segments: PostgreSQL needs a whole free segment (16 MB) each time its WAL moves on to a
 * new file it has not recycled, and the writes between two looks at the free space come on top.
 */
export const WAL_RESERVE_BYTES = 64 * 1024 * 1024;
const SPACE_CHECK_MS = 250;
/** How long a failed write, or a successful one, stands for the database's state. */
const FAILURE_STANDS_MS = 5_000;
const SUCCESS_STANDS_MS = 10_000;
const PROBE_INTERVAL_MS = 1_000;
const PROBE_TIMEOUT_MS = 2_000;

// PostgreSQL's disk_full, whatever wrote it (a table, an index, a temporary file, the WAL); Node's
// own ENOSPC; and PostgreSQL's words for it, for an error that reaches us without its code.
const NO_SPACE = /No space left on device/i;

/** Whether `error`, or one of its causes, says the storage is full. */
export function isStorageFullError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (candidate.code === '53100' || candidate.code === 'ENOSPC') return true;
    if (typeof candidate.message === 'string' && NO_SPACE.test(candidate.message)) return true;
    current = candidate.cause;
  }
  return false;
}

export type LowSpace = { path: string; freeBytes: number; reserveBytes: number };

export type StorageHealthOptions = {
  /** pg_wal of the app's own PostgreSQL (its file system is watched); none with DATABASE_URL. */
  walDir?: string;
  reserveBytes?: number;
  /** A small real write; throws when it cannot be made. */
  probe: () => Promise<void>;
  /** Told when the space falls below the reserve, and when it is back above it. */
  onChange?: (low: LowSpace | undefined) => void;
  now?: () => number;
};

export class StorageHealth {
  private spaceCheckedAt = Number.NEGATIVE_INFINITY;
  private low: LowSpace | undefined;
  private last: { ok: boolean; at: number } | undefined;
  private probedAt = Number.NEGATIVE_INFINITY;
  private probing: Promise<boolean> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: StorageHealthOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The WAL's file system when it has less than the reserve free; undefined when it has room (or none is watched). */
  lowSpace(): LowSpace | undefined {
    const { walDir } = this.options;
    if (!walDir) return undefined;
    const now = this.now();
    if (now - this.spaceCheckedAt < SPACE_CHECK_MS) return this.low;
    this.spaceCheckedAt = now;
    const reserveBytes = this.options.reserveBytes ?? WAL_RESERVE_BYTES;
    let low: LowSpace | undefined;
    try {
      const stats = statfsSync(walDir);
      const freeBytes = stats.bavail * stats.bsize;
      if (freeBytes < reserveBytes) low = { path: walDir, freeBytes, reserveBytes };
    } catch {
      low = undefined; // not there (yet): nothing to say about it
    }
    if (Boolean(low) !== Boolean(this.low)) this.options.onChange?.(low);
    this.low = low;
    return low;
  }

  /** A write failed because the storage is full. */
  noteWriteFailed(): void {
    this.last = { ok: false, at: this.now() };
  }

  /** A write was committed. */
  noteWriteSucceeded(): void {
    this.last = { ok: true, at: this.now() };
  }

  /** Whether the database can write now (see the top of this file). */
  async writable(): Promise<boolean> {
    if (this.lowSpace()) return false;
    const now = this.now();
    const last = this.last;
    if (last && now - last.at < (last.ok ? SUCCESS_STANDS_MS : FAILURE_STANDS_MS)) return last.ok;
    if (this.probing) return this.probing;
    if (now - this.probedAt < PROBE_INTERVAL_MS) return last?.ok ?? true;
    this.probedAt = now;
    this.probing = this.probe().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probe(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.options.probe(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('the write probe took too long')), PROBE_TIMEOUT_MS);
        }),
      ]);
      this.noteWriteSucceeded();
      return true;
    } catch {
      // Full, or unreachable, or too slow: either way nothing can be saved right now.
      this.noteWriteFailed();
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}

const PROBE_KEY = 'payweave:write-probe';

/**
 * The probe: one real row written and committed (WAL included), on a key no limit uses, in a table
 * whose expired rows are swept anyway (rate_limit_counters): no lock anyone else takes.
 */
export async function writeProbe(db: DbOrTx): Promise<void> {
  await db.execute(sql`insert into rate_limit_counters (key, points, expire) values (${PROBE_KEY}, 0, now())
    on conflict (key) do update set expire = excluded.expire`);
}
