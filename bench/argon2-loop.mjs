// The host's own argon2id rate for `npm run bench` (DECISIONS §8): verifications of one password
// at the app's parameters, on all cores (libuv's pool sized to the cores, twice as many in flight
// so that no core waits), for a fixed time. Started as its own process; prints one JSON line.
import { hash, verify } from '@node-rs/argon2';

const options = JSON.parse(process.env.ARGON2_OPTIONS ?? '{}');
const seconds = Number(process.env.ARGON2_SECONDS ?? 5);
const inFlight = Number(process.env.ARGON2_IN_FLIGHT ?? 4);
const password = 'Bench-Pass-2026';
const stored = await hash(password, options);
// One verification first: the pool's threads and their memory are set up outside the window.
await verify(stored, password);

let verifications = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const deadline = started + seconds * 1000;
let finishedAt = started;
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (performance.now() < deadline) {
      if (!(await verify(stored, password))) throw new Error('argon2 verification failed');
      verifications += 1;
      finishedAt = performance.now();
    }
  }),
);
const cpu = process.cpuUsage(cpuBefore);
const elapsed = (finishedAt - started) / 1000;
console.log(JSON.stringify({ verifications, seconds: elapsed, rate: verifications / elapsed, cpuMsPerVerification: (cpu.user + cpu.system) / 1000 / verifications }));
