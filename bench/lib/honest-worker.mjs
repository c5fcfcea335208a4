// The honest users' side of the isolation and attack scenarios (honest.ts), run in a worker thread
// of its own: the flood's autocannon runs on the bench's main event loop, and an honest request
// timed there would also wait for the attacker's thousands of answers a second to be processed,
// which no server could help (decision 133). Plain JavaScript, so that no loader is needed in it.
import { parentPort, workerData } from 'node:worker_threads';

/** @param {{ name: string, rate: number, requests: Array<{ method: string, path: string, headers?: Record<string, string>, body?: string }> }} stream */
async function runStream(baseUrl, stream) {
  const latencies = [];
  const failed = {};
  const examples = [];
  const inFlight = new Set();
  const interval = 1000 / stream.rate;
  const started = performance.now();
  for (let i = 0; i < stream.requests.length; i += 1) {
    // Each send at its own time from the start, not after the previous one (no drift, no waiting).
    const wait = started + i * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const request = stream.requests[i];
    const sentAt = performance.now();
    const done = fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(30_000) })
      .then(async (response) => {
        const text = await response.text();
        latencies.push(performance.now() - sentAt);
        if (response.status < 200 || response.status >= 300) {
          failed[response.status] = (failed[response.status] ?? 0) + 1;
          if (examples.length < 3) examples.push(`${response.status} ${text.slice(0, 200)}`);
        }
      })
      .catch((error) => {
        latencies.push(performance.now() - sentAt);
        failed.error = (failed.error ?? 0) + 1;
        if (examples.length < 3) examples.push(String(error));
      });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  }
  await Promise.all(inFlight);
  return { latencies, failed, examples };
}

const { baseUrl, streams } = workerData;
const results = await Promise.all(streams.map((stream) => runStream(baseUrl, stream)));
parentPort.postMessage(Object.fromEntries(streams.map((stream, i) => [stream.name, results[i]])));
