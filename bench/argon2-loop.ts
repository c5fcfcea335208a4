// The host's own argon2id rate for `npm run bench` (docs/rules.md#perf-headroom): verifications of one password
// at the app's parameters, hashed exactly as the server hashes them — through the app's argon2id
// pool (src/server/lib/argon2-pool.ts: one worker thread per core at nice 19) — with twice as many
// in flight as there are threads so that no thread waits, for a fixed time. Started as its own
// process (node --import tsx); prints one JSON line.
import { Argon2Pool, defaultArgon2PoolOptions } from '../src/server/lib/argon2-pool';
import { PASSWORD_HASH_OPTIONS } from '../src/server/lib/passwords';

const seconds = Number(process.env.ARGON2_SECONDS ?? 5);
const defaults = defaultArgon2PoolOptions();
const inFlight = Number(process.env.ARGON2_IN_FLIGHT ?? defaults.threads * 2);
// Nothing is shed here: the queue holds every verification in flight.
const pool = new Argon2Pool({ ...defaults, queueLimit: inFlight });
const password = 'Bench-Pass-2026';
const stored = await pool.hash(password, PASSWORD_HASH_OPTIONS);
// One verification per thread first: the threads and their memory are set up outside the window.
await Promise.all(Array.from({ length: defaults.threads }, () => pool.verify(stored, password)));

let verifications = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const deadline = started + seconds * 1000;
let finishedAt = started;
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (performance.now() < deadline) {
      if (!(await pool.verify(stored, password))) throw new Error('argon2 verification failed');
      verifications += 1;
      finishedAt = performance.now();
    }
  }),
);
const cpu = process.cpuUsage(cpuBefore);
const elapsed = (finishedAt - started) / 1000;
const { nicedThreads, threads } = pool.stats();
await pool.close();
console.log(JSON.stringify({ verifications, seconds: elapsed, rate: verifications / elapsed, cpuMsPerVerification: (cpu.user + cpu.system) / 1000 / verifications, threads, nicedThreads }));
