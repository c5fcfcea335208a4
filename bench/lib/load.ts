// autocannon, driven from this process (the server is another one), and what a run reports.
import type { IncomingHttpHeaders } from 'node:http';
import autocannon, { type Options, type Request, type Result } from 'autocannon';
import { cpuPerRequest, startCpuWindow, type CpuMs } from './cpu';

export type Figures = {
  /** Successful (2xx) answers per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  durationSeconds: number;
  /** A few non-2xx answers, to say why. */
  failures: string[];
  /** CPU milliseconds per answer: PostgreSQL's processes, the server's, this process's (the load). */
  cpu: CpuMs | null;
  /** Answers by status code. */
  statuses: Record<string, number>;
};

export type LoadSpec = {
  url: string;
  connections: number;
  /** Either a duration (seconds) or a fixed number of requests (spread evenly over the connections). */
  duration?: number;
  amount?: number;
  requests: Request[];
  /** The server process, whose CPU time is reported per answer. */
  serverPid?: number;
  /** The databases whose PostgreSQL backends count as this load's (the app's own). */
  databases?: readonly string[];
  /** Answers with these statuses are expected (a flood's 429s and 503s): counted, not failures. */
  expectedStatuses?: readonly number[];
  /** Work the answers left to do after them (the outbox's payouts and captures): inside the CPU window. */
  settled?: () => Promise<void>;
};

export async function runLoad(spec: LoadSpec): Promise<Figures> {
  const failures: string[] = [];
  const statuses: Record<string, number> = {};
  const expected = new Set(spec.expectedStatuses ?? []);
  let expectedCount = 0;
  let lastResponseAt = 0;
  const requests = spec.requests.map((request) => ({
    ...request,
    onResponse: (status: number, body: string, context: object, headers: IncomingHttpHeaders | undefined) => {
      if (typeof request.onResponse === 'function') request.onResponse(status, body, context, headers);
      lastResponseAt = performance.now();
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (expected.has(status)) expectedCount += 1;
      else if ((status < 200 || status >= 300) && failures.length < 5) failures.push(`${status} ${body.slice(0, 300)}`);
    },
  }));
  const options: Options = {
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    timeout: 30,
    ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.duration ?? 10 }),
    requests,
  };
  // autocannon's own duration is in whole seconds, and a fixed-amount run only notices it is done
  // at its next one-second tick: time it here, from the start to the last answer.
  const started = performance.now();
  const cpu = await startCpuWindow({ serverPid: spec.serverPid, databases: spec.databases });
  const result: Result = await autocannon(options);
  const answeredAt = performance.now();
  await spec.settled?.();
  const cpuTotal = await cpu.stop();
  // The rate is of answers: the time the outbox took after the last one is not in it.
  const seconds = Math.max(0.001, ((spec.amount !== undefined && lastResponseAt > started ? lastResponseAt : answeredAt) - started) / 1000);
  const ok = result['2xx'];
  return {
    rps: ok / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    max: result.latency.max,
    requests: ok + result.non2xx,
    non2xx: result.non2xx - expectedCount,
    errors: result.errors,
    durationSeconds: seconds,
    failures,
    cpu: cpuPerRequest(cpuTotal, ok),
    statuses,
  };
}
