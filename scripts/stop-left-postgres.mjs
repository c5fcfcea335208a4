// The embedded PostgreSQL of a scratch DATA_DIR that a server left running (it was killed, or did not
// stop in time): stopped before the folder is removed, so that no postmaster outlives the run.
// For scripts in plain Node (e2e.mjs, lighthouse.mjs); the app itself uses src/server/db/embedded-postgres.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Stops (fast shutdown) the postmaster of DATA_DIR/postgres, if it still runs. */
export async function stopLeftPostgres(dataDir) {
  const clusterDir = path.join(dataDir, 'postgres');
  let pid;
  try {
    pid = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!Number.isInteger(pid) || pid <= 0 || !alive()) return;
  // A PID left in a stale file may since belong to another program.
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')) return;
  } catch {
    // no /proc (macOS): trust the file, as PostgreSQL itself does
  }
  console.warn(`the server's PostgreSQL (pid ${pid}) still runs: stopping it`);
  const signal = (name) => {
    try {
      process.kill(pid, name);
    } catch {
      // gone meanwhile
    }
  };
  signal('SIGINT');
  for (let waited = 0; alive() && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) signal('SIGQUIT');
}
