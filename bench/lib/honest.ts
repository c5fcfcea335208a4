// Honest traffic for the isolation and flood scenarios: requests sent at a fixed rate (an open
// loop, as real users arrive whatever the server's state), each timed on its own with
// performance.now(), so that a p99 of a few milliseconds can be compared with twice another.
// autocannon's closed loop would instead slow its senders down as the server slows.
import { percentile } from './stats';

export type HonestRequest = { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };

export type HonestStream = {
  name: string;
  /** Requests per second, spread evenly. */
  rate: number;
  /** The next request to send (cycling over users, new idempotency keys). */
  next: () => HonestRequest;
  /** Called with each answer (e.g. to follow a rotated session cookie). */
  onAnswer?: (status: number, headers: Headers) => void;
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

/** Runs every stream for `seconds`; figures per stream name. */
export async function runHonest(baseUrl: string, streams: readonly HonestStream[], seconds: number): Promise<Record<string, HonestFigures>> {
  const out: Record<string, HonestFigures> = {};
  await Promise.all(
    streams.map(async (stream) => {
      const latencies: number[] = [];
      const failed: Record<string, number> = {};
      const examples: string[] = [];
      const inFlight = new Set<Promise<void>>();
      const interval = 1000 / stream.rate;
      const started = performance.now();
      const count = Math.max(1, Math.floor(seconds * stream.rate));
      for (let i = 0; i < count; i += 1) {
        // Each send at its own time from the start, not after the previous one (no drift, no waiting).
        const wait = started + i * interval - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const request = stream.next();
        const sentAt = performance.now();
        const done = fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(30_000) })
          .then(async (response) => {
            const text = await response.text();
            latencies.push(performance.now() - sentAt);
            stream.onAnswer?.(response.status, response.headers);
            if (response.status < 200 || response.status >= 300) {
              failed[response.status] = (failed[response.status] ?? 0) + 1;
              if (examples.length < 3) examples.push(`${response.status} ${text.slice(0, 200)}`);
            }
          })
          .catch((error: unknown) => {
            latencies.push(performance.now() - sentAt);
            failed.error = (failed.error ?? 0) + 1;
            if (examples.length < 3) examples.push(String(error));
          });
        inFlight.add(done);
        void done.finally(() => inFlight.delete(done));
      }
      await Promise.all(inFlight);
      out[stream.name] = summarise(latencies, failed, examples);
    }),
  );
  return out;
}
