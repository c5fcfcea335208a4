// autocannon, driven from this process (the server is another one), and what a run reports.
import autocannon, { type Options, type Request, type Result } from 'autocannon';
import { cpuPerRequest, sampleCpu, type CpuMs } from './cpu';

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
};

export async function runLoad(spec: LoadSpec): Promise<Figures> {
  const failures: string[] = [];
  let lastResponseAt = 0;
  const requests = spec.requests.map((request) => ({
    ...request,
    onResponse: (status: number, body: string) => {
      lastResponseAt = performance.now();
      if ((status < 200 || status >= 300) && failures.length < 5) failures.push(`${status} ${body.slice(0, 300)}`);
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
  const cpuBefore = sampleCpu(spec.serverPid);
  const result: Result = await autocannon(options);
  const cpuAfter = sampleCpu(spec.serverPid);
  const seconds = Math.max(0.001, ((spec.amount !== undefined && lastResponseAt > started ? lastResponseAt : performance.now()) - started) / 1000);
  const ok = result['2xx'];
  return {
    rps: ok / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    max: result.latency.max,
    requests: ok + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    durationSeconds: seconds,
    failures,
    cpu: cpuPerRequest(cpuBefore, cpuAfter, ok),
  };
}
