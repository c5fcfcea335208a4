// The one place argon2id runs (docs/rules.md#hashing-pool, decision 080): a bounded pool of worker threads, at
// most one hash per core at a time, with a short queue; past it a request is refused at once
// (503 with Retry-After) instead of waiting, so a flood of password checks cannot pile up work.
//
// Each worker runs @node-rs/argon2's synchronous functions at the lowest CPU priority (nice 19,
// set on its own thread id read from /proc/thread-self/stat, then Linux's SCHED_IDLE policy where
// `chrt` can set it, decision 138): the kernel then runs hashing only when nothing at normal
// priority wants the CPU, so the event loop answering card lists and cash-outs, and PostgreSQL,
// go first (docs/history/performance-log.md, "What the isolation floor needs"). Where that is not possible
// (not Linux, no /proc) the worker hashes at normal priority. SCHED_IDLE starves hashing on a host
// kept fully busy by other normal-priority work, so the level is a setting, `ARGON2_PRIORITY`
// (decision 184): `idle` (the default), `low` (nice 19 only) or `normal`.
//
// The queue is fair between clients (the caller names one, the request's IP): each client's recent
// use of the pool is counted (decaying by half every 7 s), a free thread takes the waiting job of
// the client that used the pool least, and when the queue is full it is the heaviest client's
// newest job that is refused, not a newcomer's. An honest user signing in once does not wait
// behind, or get refused for, the addresses that keep the pool busy.
//
// A waiting job whose client has gone (the caller says how to tell: the connection closed before
// the answer) is dropped, never hashed: a client that gives up, or a load generator that stops,
// leaves no hashes behind it to hold the threads and the queue while new requests are refused.
import os from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { AppError } from './errors';
import { setNewest } from './bounded-map';

export type Argon2Options = { algorithm: number; memoryCost: number; timeCost: number; parallelism: number };

export type Argon2PoolOptions = {
  /** Hashes at once; one per core by default. */
  threads: number;
  /** Jobs waiting for a thread, beyond which a new one is refused. */
  queueLimit: number;
  /** The workers' CPU priority: `idle` = nice 19 then SCHED_IDLE, `low` = nice 19, `normal` = unchanged. */
  priority: Argon2Priority;
};

export const ARGON2_PRIORITIES = ['idle', 'low', 'normal'] as const;
export type Argon2Priority = (typeof ARGON2_PRIORITIES)[number];

/** A few waiting jobs per hashing thread: about half a second of waiting on a quiet machine. */
export const ARGON2_QUEUE_PER_THREAD = 4;
export const ARGON2_DEFAULT_PRIORITY: Argon2Priority = 'idle';
/** What a refused request is told to wait, in seconds. */
export const ARGON2_BUSY_RETRY_AFTER_SECONDS = 2;
export const ARGON2_BUSY_MESSAGE = 'We are checking a lot of passwords right now. Please try again in a few seconds.';

export function defaultArgon2PoolOptions(): Argon2PoolOptions {
  const threads = Math.max(1, os.availableParallelism());
  return { threads, queueLimit: threads * ARGON2_QUEUE_PER_THREAD, priority: argon2PriorityFromEnv(process.env.ARGON2_PRIORITY) };
}

/** Reads `ARGON2_PRIORITY`; a value that is not one of the levels stops the start with its name. */
export function argon2PriorityFromEnv(value: string | undefined): Argon2Priority {
  if (value === undefined || value === '') return ARGON2_DEFAULT_PRIORITY;
  const level = ARGON2_PRIORITIES.find((known) => known === value);
  if (!level) throw new Error(`ARGON2_PRIORITY must be one of ${ARGON2_PRIORITIES.join(', ')} (got "${value}")`);
  return level;
}

// The worker's code, run with `eval` so that the server bundle (decision 001) needs no second
// file: CommonJS, given the resolved path of @node-rs/argon2 by the main thread.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2Path);
let niced = false;
if (workerData.priority !== 'normal') {
  try {
    const stat = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8');
    const tid = Number(stat.slice(0, stat.indexOf(' ')));
    if (Number.isSafeInteger(tid) && tid > 0) {
      require('node:os').setPriority(tid, 19);
      niced = true;
      // SCHED_IDLE below nice 19 (decision 138): Node has no call for a thread's scheduling
      // policy, util-linux's chrt sets it once per worker; without chrt, nice 19 stays.
      if (workerData.priority === 'idle') {
        try {
          require('node:child_process').execFileSync('chrt', ['--idle', '-p', '0', String(tid)], { stdio: 'ignore', timeout: 2000 });
        } catch {}
      }
    }
  } catch {}
}
parentPort.postMessage({ ready: true, niced });
parentPort.on('message', (job) => {
  try {
    const result = job.op === 'hash' ? argon2.hashSync(job.password, job.options) : argon2.verifySync(job.hash, job.password);
    parentPort.postMessage({ id: job.id, ok: true, result });
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: String((error && error.message) || error) });
  }
});
`;

type JobMessage = { id: number; op: 'hash'; password: string; options: Argon2Options } | { id: number; op: 'verify'; hash: string; password: string };
/** True once nobody waits for the job's answer any more. */
export type ClientGone = () => boolean;
type Job = { message: JobMessage; client: string; gone: ClientGone | undefined; resolve: (value: string | boolean) => void; reject: (error: Error) => void };

/** How fast a client's use of the pool is forgotten: halved every this many ms. */
const USAGE_HALF_LIFE_MS = 7_000;
/** Clients remembered at most (the least used are forgotten first). */
const MAX_CLIENTS = 10_000;
type Slot = { worker: Worker; job: Job | null; niced: boolean };

export type Argon2PoolStats = {
  threads: number;
  queueLimit: number;
  started: number;
  refused: number;
  /** Waiting jobs dropped because their client had gone. */
  abandoned: number;
  running: number;
  queued: number;
  nicedThreads: number;
};

export const argon2Busy = (): AppError => new AppError(503, 'service_unavailable', ARGON2_BUSY_MESSAGE, undefined, ARGON2_BUSY_RETRY_AFTER_SECONDS);

export class Argon2Pool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private started = 0;
  private refused = 0;
  private abandoned = 0;
  private closed = false;
  private readonly usage = new Map<string, { value: number; at: number }>();
  private readonly argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');

  constructor(readonly options: Argon2PoolOptions) {
    if (!Number.isSafeInteger(options.threads) || options.threads < 1) throw new RangeError('threads must be a positive integer');
    if (!Number.isSafeInteger(options.queueLimit) || options.queueLimit < 0) throw new RangeError('queueLimit must be a non-negative integer');
  }

  /**
   * `client`: who asks (the request's IP), for the fair queue; one shared name when unknown.
   * `gone`: whether the asker stopped waiting; a job still queued then is dropped (rejected busy).
   */
  hash(password: string, options: Argon2Options, client = '', gone?: ClientGone): Promise<string> {
    return this.run({ id: 0, op: 'hash', password, options }, client, gone) as Promise<string>;
  }

  verify(hash: string, password: string, client = '', gone?: ClientGone): Promise<boolean> {
    return this.run({ id: 0, op: 'verify', hash, password }, client, gone) as Promise<boolean>;
  }

  /**
   * Whether a job of `client` asked for now would be refused: no thread free, the queue full, and
   * no waiting client heavier than this one. Asked before a request's body is read and its account
   * looked up, so that a refusal under a flood costs the least it can (decision 131); the attempt
   * counts towards the client's use like a job would, so a flooding client stays the heaviest.
   */
  refusesNow(client = ''): boolean {
    if (this.closed) return true;
    if (this.slots.length < this.options.threads || this.slots.some((slot) => !slot.job)) return false;
    // Jobs whose clients hung up hold no place (decision 136).
    if (this.queue.length >= this.options.queueLimit) this.dropAbandoned();
    if (this.queue.length < this.options.queueLimit) return false;
    const now = Date.now();
    const weight = this.weight(client, now) + 1;
    if (this.queue.some((waiting) => this.weight(waiting.client, now) > weight)) return false;
    this.touch(client);
    this.refused += 1;
    return true;
  }

  stats(): Argon2PoolStats {
    return {
      threads: this.options.threads,
      queueLimit: this.options.queueLimit,
      started: this.started,
      refused: this.refused,
      abandoned: this.abandoned,
      running: this.slots.filter((slot) => slot.job).length,
      queued: this.queue.length,
      nicedThreads: this.slots.filter((slot) => slot.niced).length,
    };
  }

  /** Ends the threads; jobs still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(argon2Busy());
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private run(message: JobMessage, client: string, gone: ClientGone | undefined): Promise<string | boolean> {
    if (this.closed) return Promise.reject(argon2Busy());
    if (gone?.()) {
      this.abandoned += 1;
      return Promise.reject(argon2Busy());
    }
    return new Promise((resolve, reject) => {
      const job: Job = { message: { ...message, id: this.nextId++ }, client, gone, resolve, reject };
      const weight = this.touch(client);
      const slot = this.idleSlot();
      if (slot) return this.dispatch(slot, job);
      if (this.queue.length >= this.options.queueLimit) this.dropAbandoned();
      if (this.queue.length < this.options.queueLimit) return void this.queue.push(job);
      // Full: the newest job of the heaviest client waiting goes, if that client is heavier than this one.
      // One clock reading for every weight: a millisecond passing mid-loop made the same client's
      // later jobs look lighter, and its oldest waiting job went instead of its newest.
      const now = Date.now();
      let shed = -1;
      let heaviest = weight;
      this.queue.forEach((waiting, index) => {
        const w = this.weight(waiting.client, now);
        if (w > heaviest || (w === heaviest && shed >= 0 && waiting.client === this.queue[shed]!.client)) {
          heaviest = w;
          shed = index;
        }
      });
      this.refused += 1;
      if (shed < 0) return reject(argon2Busy());
      const [refused] = this.queue.splice(shed, 1);
      refused!.reject(argon2Busy());
      this.queue.push(job);
    });
  }

  /** The client's recent use, decayed to now. */
  private weight(client: string, now = Date.now()): number {
    const entry = this.usage.get(client);
    return entry ? entry.value * 0.5 ** ((now - entry.at) / USAGE_HALF_LIFE_MS) : 0;
  }

  /** Counts one job of the client; returns its weight with it. */
  private touch(client: string): number {
    const now = Date.now();
    const value = this.weight(client, now) + 1;
    setNewest(this.usage, client, { value, at: now }, MAX_CLIENTS);
    return value;
  }

  private idleSlot(): Slot | undefined {
    const idle = this.slots.find((slot) => !slot.job);
    if (idle) return idle;
    if (this.slots.length < this.options.threads) return this.spawn();
    return undefined;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2Path: this.argon2Path, priority: this.options.priority } });
    const slot: Slot = { worker, job: null, niced: false };
    worker.unref(); // an idle pool never keeps the process alive
    worker.on('message', (message: { ready?: boolean; niced?: boolean; id?: number; ok?: boolean; result?: string | boolean; message?: string }) => {
      if (message.ready) {
        slot.niced = Boolean(message.niced);
        return;
      }
      const job = slot.job;
      if (!job || job.message.id !== message.id) return;
      slot.job = null;
      worker.unref();
      if (message.ok) job.resolve(message.result as string | boolean);
      else job.reject(new Error(`argon2: ${message.message ?? 'failed'}`));
      this.next(slot);
    });
    const fail = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      slot.job?.reject(error);
      slot.job = null;
      // A job waiting for this thread gets a new one.
      const waiting = this.takeNext();
      if (waiting && !this.closed) this.dispatch(this.spawn(), waiting);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) fail(new Error(`argon2 worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    this.started += 1;
    slot.worker.ref(); // a job in flight keeps the process alive until it answers
    slot.worker.postMessage(job.message);
  }

  /** Drops the waiting jobs whose client has gone: nobody would read their answer. */
  private dropAbandoned(): void {
    for (let index = this.queue.length - 1; index >= 0; index -= 1) {
      const job = this.queue[index]!;
      if (!job.gone?.()) continue;
      this.queue.splice(index, 1);
      this.abandoned += 1;
      job.reject(argon2Busy());
    }
  }

  /** The waiting job of the client that used the pool least (the earliest of its jobs on a tie). */
  private takeNext(): Job | undefined {
    this.dropAbandoned();
    if (this.queue.length === 0) return undefined;
    const now = Date.now();
    let best = 0;
    let bestWeight = Infinity;
    this.queue.forEach((job, index) => {
      const w = this.weight(job.client, now);
      if (w < bestWeight) {
        bestWeight = w;
        best = index;
      }
    });
    return this.queue.splice(best, 1)[0];
  }

  private next(slot: Slot): void {
    const job = this.takeNext();
    if (job) this.dispatch(slot, job);
  }
}

// One pool per process: the cores are the process's, whatever number of apps it builds (tests).
let shared: Argon2Pool | undefined;

export function argon2Pool(): Argon2Pool {
  shared ??= new Argon2Pool(defaultArgon2PoolOptions());
  return shared;
}

/** Replaces the process's pool (tests of the bound; the bench's yardstick uses its own). */
export async function replaceArgon2Pool(options: Argon2PoolOptions): Promise<Argon2Pool> {
  const previous = shared;
  shared = new Argon2Pool(options);
  await previous?.close();
  return shared;
}
