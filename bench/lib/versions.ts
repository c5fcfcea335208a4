// The versions one run measures: this tree's build (B) alone, or with `--against <ref>` the ref's
// build (A) beside it, each a server on a database of its own on the one PostgreSQL, prepared
// through its own API; their rounds alternate, A then B, scenario by scenario
// (docs/rules.md#perf-same-run).
import { execFileSync } from 'node:child_process';
import type { Figures } from './load';
import type { BenchOptions } from './options';
import { createDatabase, outboxSettled, queryDatabase } from './postgres';
import { projectRoot, SERVER_ENTRY, startAppServer, type AppServer } from './processes';
import { kernelShare } from './report';
import { measureScenario, prepare, type Prepared, type ScenarioName } from './scenarios';
import type { RefBuild } from './worktree';

export type Version = {
  key: 'a' | 'b';
  /** How the logs name it: the ref, or "this tree". */
  label: string;
  build: { entry: string; cwd: string };
  dbName: string;
  databaseUrl: string;
  server: AppServer;
  prepared: Prepared;
};

/** What B is, for the report: the commit this tree is on, and whether it has changes beside it. */
export function describeThisTree(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    const entry = process.env.BENCH_SERVER_ENTRY ? `, the bundle ${SERVER_ENTRY}` : '';
    const subject = git('log', '-1', '--format=%s');
    return `this tree, HEAD = ${git('rev-parse', '--short=10', 'HEAD')} "${subject.length > 100 ? `${subject.slice(0, 99)}…` : subject}"${dirty ? ' with uncommitted changes' : ''}${entry}`;
  } catch {
    return `this tree (${SERVER_ENTRY})`;
  }
}

/** Starts a version's server on a new database of its own and prepares what `needs` asks for. */
export async function startVersion(
  key: Version['key'],
  label: string,
  build: Version['build'],
  options: BenchOptions,
  needs: ReadonlySet<ScenarioName>,
  log: (line: string) => void,
): Promise<Version> {
  const dbName = `payweave_bench_${process.pid}_${key}`;
  const databaseUrl = await createDatabase(dbName);
  const server = await startAppServer(databaseUrl, {}, build);
  log(`${label}: server (${build.entry}) on ${server.url}, database ${dbName}`);
  // The launch promo is for the first 100 cards only; the steady state the bench measures is
  // after it, when no completion touches the shared counter row (and no quote changes mid-run).
  await queryDatabase(databaseUrl, 'update system_promos set first_100_promo_claimed = limit_count');
  const prepared = await prepare(server.url, options, needs, (line) => log(`${label}: ${line}`));
  return { key, label, build, dbName, databaseUrl, server, prepared };
}

export function versionsToStart(ref: RefBuild | undefined): Array<{ key: Version['key']; label: string; build: Version['build'] }> {
  const b = { key: 'b' as const, label: ref ? 'B (this tree)' : 'this tree', build: { entry: SERVER_ENTRY, cwd: projectRoot } };
  return ref ? [{ key: 'a', label: `A (${ref.ref})`, build: { entry: ref.entry, cwd: ref.dir } }, b] : [b];
}

/**
 * Every round of one scenario, each version in turn within a round; the figures by version, in
 * round order. Each measured window starts on a settled database, as pgbench vacuums its tables
 * before its run: the previous window's dead rows are not this one's to pay for. The statistics are
 * taken after the warm-up, so the plans fit the tables the measured run writes to (decision 143).
 */
export async function measureRounds(
  name: ScenarioName,
  versions: readonly Version[],
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Record<Version['key'], Figures[]>> {
  const out: Record<Version['key'], Figures[]> = { a: [], b: [] };
  for (let round = 0; round < options.rounds; round += 1) {
    for (const v of versions) {
      const settle = () => queryDatabase(v.databaseUrl, 'vacuum analyze').then(() => {});
      const figures = await measureScenario(name, v.server.url, options, v.prepared, round, v.server.child.pid, [v.dbName], () => outboxSettled(v.databaseUrl), settle);
      out[v.key].push(figures);
      const where = options.rounds > 1 || versions.length > 1 ? ` (round ${round + 1}/${options.rounds}, ${v.label})` : '';
      log(`  ${figures.rps.toFixed(0)} answers/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.non2xx} non-2xx, ${figures.errors} errors${where}`);
      if (figures.cpu) log(`  CPU per answer: PostgreSQL ${figures.cpu.postgresMs.toFixed(3)} ms (server-wide ${figures.cpu.postgresAllMs.toFixed(3)}; ${kernelShare(figures.cpu)} in the kernel), server ${figures.cpu.serverMs.toFixed(3)} ms, load generator ${figures.cpu.benchMs.toFixed(3)} ms`);
      for (const failure of figures.failures) log(`  e.g. ${failure}`);
    }
  }
  return out;
}
