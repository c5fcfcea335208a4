// Honest traffic for the isolation and flood scenarios: requests sent at a fixed rate (an open
// loop, as real users arrive whatever the server's state), each timed on its own with
// performance.now(), so that a p99 of a few milliseconds can be compared with twice another.
// autocannon's closed loop would instead slow its senders down as the server slows. They are sent
// from a worker thread, apart from the flood's event loop (decision 133).
import { Worker } from 'node:worker_threads';
import { percentile } from './stats';

export type HonestRequest = { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };

export type HonestStream = {
  name: string;
  /** Requests per second, spread evenly. */
  rate: number;
  /** The next request to send (cycling over users, new idempotency keys). */
  next: () => HonestRequest;
};

export type HonestFigures = {
  sent: number;
  ok: number;
  /** Answers other than 2xx, by status (429 and 503 included: an honest user should meet neither). */
  failed: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  /** A few failures, to say why. */
  examples: string[];
};

export function summarise(latencies: number[], failed: Record<string, number>, examples: string[]): HonestFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  const failures = Object.values(failed).reduce((sum, n) => sum + n, 0);
  return { sent: sorted.length, ok: sorted.length - failures, failed, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0, examples };
}

/**
 * Runs every stream for `seconds` in a worker thread of its own (honest-worker.mjs, decision 133);
 * figures per stream name. The requests are made here beforehand (users in turn, new idempotency
 * keys), so the worker only sends and times them.
 */
export async function runHonest(
  baseUrl: string,
  streams: readonly HonestStream[],
  seconds: number,
  /**
   * `fetch` for the floods' honest users, as their floors were set with (decision 133); `sockets`
   * for the latency runs' thousands a second, which fetch's own cost would queue (open-loop-worker.mjs).
   */
  sender: 'fetch' | 'sockets' = 'fetch',
): Promise<Record<string, HonestFigures>> {
  const planned = streams.map((stream) => ({
    name: stream.name,
    rate: stream.rate,
    requests: Array.from({ length: Math.max(1, Math.floor(seconds * stream.rate)) }, () => stream.next()),
  }));
  const script = sender === 'fetch' ? './honest-worker.mjs' : './open-loop-worker.mjs';
  const worker = new Worker(new URL(script, import.meta.url), { workerData: { baseUrl, streams: planned } });
  const raw = await new Promise<Record<string, { latencies: number[]; failed: Record<string, number>; examples: string[] }>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the honest traffic's worker exited with code ${code}`)));
  });
  await worker.terminate();
  return Object.fromEntries(Object.entries(raw).map(([name, r]) => [name, summarise(r.latencies, r.failed, r.examples)]));
}
