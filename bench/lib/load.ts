// autocannon, driven from this process (the server is another one), and what a run reports.
import autocannon, { type Options, type Request, type Result } from 'autocannon';

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
};

export type LoadSpec = {
  url: string;
  connections: number;
  /** Either a duration (seconds) or a fixed number of requests (spread evenly over the connections). */
  duration?: number;
  amount?: number;
  requests: Request[];
};

export async function runLoad(spec: LoadSpec): Promise<Figures> {
  const failures: string[] = [];
  const requests = spec.requests.map((request) => ({
    ...request,
    onResponse: (status: number, body: string) => {
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
  const result: Result = await autocannon(options);
  const ok = result['2xx'];
  return {
    rps: result.duration > 0 ? ok / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    max: result.latency.max,
    requests: ok + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    durationSeconds: result.duration,
    failures,
  };
}
