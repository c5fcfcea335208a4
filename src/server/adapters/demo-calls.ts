// What the demo adapters share: a record of every call they receive, with its
// reference, so tests count money that left (one accepted cash-out, one payout); the outside
// system's deduplication by reference (a retried call with a known reference does nothing new);
// and faults on demand, to break a chosen call: fail, time out, or succeed and lose the answer.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { setNewest } from '../lib/bounded-map';
import { parseFaults, type DemoOperation, type FaultMode, type FaultRule } from '../lib/demo-faults';
import { OutsideSystemError } from '../lib/errors';

/**
 * One call as the outside system saw it. `outcome`: `done` (it did the thing and answered), `answer-lost`
 * (it did the thing; the caller never heard), `failed` and `timed-out` (it did nothing), `duplicate`
 * (a known reference: it did nothing new and answered as the first time). `destination`: the payout
 * destination the call concerns (decision 168): the one a payout was sent to (null: unknown), or
 * the one a registration made.
 */
export type DemoCall = {
  op: DemoOperation;
  reference: string;
  amountCents?: number;
  destination?: string | null;
  outcome: 'done' | 'answer-lost' | 'failed' | 'timed-out' | 'duplicate';
  at: string;
};

export class DemoFaultError extends OutsideSystemError {
  constructor(
    readonly op: DemoOperation,
    readonly mode: FaultMode,
  ) {
    super(op, mode === 'timeout' ? `${op}: the demo provider timed out` : mode === 'lose-answer' ? `${op}: the connection dropped before the answer` : `${op}: the demo provider failed`);
  }
}

export type DemoCallLogOptions = {
  /** A JSON-lines file every call is appended to (kept across a crash and a restart). */
  file?: string;
  faults?: string;
  /** How long a `timeout` fault hangs before it rejects. */
  timeoutMs?: number;
  /** How many references the outside system remembers, newest first (decision 154). */
  rememberedReferences?: number;
  /** `calls` keeps at least this many of the newest calls, and at most twice as many (the file keeps them all). */
  keptCalls?: number;
};

// A demo server runs for weeks: what it remembers must not grow with every request (decision 154).
// A real processor also forgets an idempotency key after a while (a day, commonly); the app's
// retries of one effect end within minutes (effects/drain.ts), far inside either bound.
export const REMEMBERED_REFERENCES = 100_000;
export const KEPT_CALLS = 10_000;

export class DemoCallLog {
  readonly calls: DemoCall[] = [];
  private readonly results = new Map<string, unknown>();
  private readonly seen = new Map<DemoOperation, number>();
  private rules: FaultRule[];
  private readonly timeoutMs: number;
  private readonly rememberedReferences: number;
  private readonly keptCalls: number;

  constructor(private readonly options: DemoCallLogOptions = {}) {
    this.rules = parseFaults(options.faults);
    this.timeoutMs = options.timeoutMs ?? 200;
    this.rememberedReferences = options.rememberedReferences ?? REMEMBERED_REFERENCES;
    this.keptCalls = options.keptCalls ?? KEPT_CALLS;
    // The outside system remembers what it did across our restarts: reload its references.
    if (options.file && existsSync(options.file)) {
      for (const line of readFileSync(options.file, 'utf8').split('\n')) {
        if (!line) continue;
        const call = JSON.parse(line) as DemoCall & { result?: unknown };
        if ((call.outcome === 'done' || call.outcome === 'answer-lost') && call.result !== undefined) this.remember(key(call.op, call.reference), call.result);
      }
    }
  }

  /** Breaks calls of `op` by their number (1 = the next one of that operation from now on, counted per process), or every call from now on. */
  inject(op: DemoOperation, mode: FaultMode, callNumbers: number[] | 'all' = [1]): void {
    const base = this.seen.get(op) ?? 0;
    this.rules.push({ op, mode, calls: callNumbers === 'all' ? 'all' : new Set(callNumbers.map((n) => base + n)) });
  }

  clearFaults(): void {
    this.rules = [];
  }

  /** Calls of `op` that did the thing (not duplicates, not failures), one per reference. */
  effective(op: DemoOperation): DemoCall[] {
    return this.calls.filter((c) => c.op === op && (c.outcome === 'done' || c.outcome === 'answer-lost'));
  }

  /**
   * Runs `action` as the outside system would for `reference`: once, whatever the retries.
   * `destination`: what the record says of the call's payout destination, given, or read from its answer.
   */
  async call<T>(
    op: DemoOperation,
    reference: string,
    amountCents: number | undefined,
    action: () => T | Promise<T>,
    destination?: string | null | ((result: T) => string),
  ): Promise<T> {
    const count = (this.seen.get(op) ?? 0) + 1;
    this.seen.set(op, count);
    const fault = this.rules.find((rule) => rule.op === op && (rule.calls === 'all' || rule.calls.has(count)))?.mode;
    const known = this.results.get(key(op, reference)) as T | undefined;
    const given = typeof destination === 'function' ? undefined : destination;
    const destinationOf = (result: T) => (typeof destination === 'function' ? destination(result) : destination);
    if (fault === 'fail') {
      this.record({ op, reference, amountCents, destination: given, outcome: 'failed' });
      throw new DemoFaultError(op, fault);
    }
    if (fault === 'timeout') {
      this.record({ op, reference, amountCents, destination: given, outcome: 'timed-out' });
      await new Promise((resolve) => setTimeout(resolve, this.timeoutMs));
      throw new DemoFaultError(op, fault);
    }
    if (known !== undefined) {
      this.record({ op, reference, amountCents, destination: destinationOf(known), outcome: 'duplicate' });
      if (fault === 'lose-answer') throw new DemoFaultError(op, fault);
      return known;
    }
    const result = await action();
    this.remember(key(op, reference), result);
    this.record({ op, reference, amountCents, destination: destinationOf(result), outcome: fault === 'lose-answer' ? 'answer-lost' : 'done' }, result);
    if (fault === 'lose-answer') throw new DemoFaultError(op, fault);
    return result;
  }

  /** Remembers a reference's answer; past the bound, the oldest is forgotten. */
  private remember(referenceKey: string, result: unknown): void {
    setNewest(this.results, referenceKey, result, this.rememberedReferences);
  }

  private record(call: Omit<DemoCall, 'at'>, result?: unknown): void {
    const full: DemoCall = { ...call, at: new Date().toISOString() };
    if (full.amountCents === undefined) delete full.amountCents;
    if (full.destination === undefined) delete full.destination;
    this.calls.push(full);
    // Trimmed in batches, so that keeping the newest calls costs no copy per call.
    if (this.calls.length >= 2 * this.keptCalls) this.calls.splice(0, this.calls.length - this.keptCalls);
    // An issued card's number and CVV, and a pre-authorisation's token, never reach a file; only
    // their references do (neither is looked up again after a restart: their references are new
    // for every request).
    const kept = result === undefined || call.op === 'processor.issueCard' || call.op === 'processor.preauthorize' ? full : { ...full, result };
    if (this.options.file) appendFileSync(this.options.file, `${JSON.stringify(kept)}\n`);
  }
}

const key = (op: DemoOperation, reference: string) => `${op}\n${reference}`;
