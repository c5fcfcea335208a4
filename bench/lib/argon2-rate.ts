// The host's argon2id rate, measured in the same run as the sign-in scenario (docs/rules.md#perf-headroom): the
// sign-in floor is a share of what this machine's cores can hash at the app's own parameters, the
// way the app hashes (its argon2id pool: worker threads at nice 19, decision 080).
import os from 'node:os';
import path from 'node:path';
import { projectRoot, runCommand } from './processes';

export type Argon2Figures = {
  /** Verifications per second on all cores. */
  rate: number;
  /** CPU of one verification while all cores hash (as they do under a sign-in load). */
  cpuMsPerVerification: number;
  verifications: number;
  seconds: number;
  cores: number;
  /** Hashing threads, and how many of them run at nice 19. */
  threads?: number;
  nicedThreads?: number;
};

export async function measureArgon2Rate(seconds: number): Promise<Argon2Figures> {
  const cores = os.availableParallelism();
  const run = await runCommand(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'bench', 'argon2-loop.ts')], {
    PATH: process.env.PATH ?? '',
    ARGON2_SECONDS: String(seconds),
    ARGON2_IN_FLIGHT: String(cores * 2),
  });
  if (run.code !== 0) throw new Error(`the argon2 loop failed:\n${run.stderr}`);
  const figures = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Omit<Argon2Figures, 'cores'>;
  return { ...figures, cores };
}
