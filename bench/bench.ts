// `npm run bench` (docs/performance.md): the production build on a PostgreSQL database of its own,
// driven by autocannon from this process at 32 connections after a warm-up, next to two ceilings
// measured in the same run, before and after the scenarios (decision 019): pgbench (TPC-B-like) and
// a bare Fastify route.
//
//   npm run bench                  full run (builds first), floors checked and reported
//   npm run bench -- --smoke       seconds only, no floors (BENCH_SMOKE=1 too); part of npm test
//   npm run bench -- --strict      exit 1 when a floor is missed
//   npm run bench -- --only cash-out,list-cards   some scenarios only (profiling)
//   npm run bench -- --json out.json              the figures as JSON too
//   npm run bench -- --skip-ceilings              scenarios only (A/B runs; BENCH_SERVER_ENTRY=other bundle)
import { existsSync, writeFileSync } from 'node:fs';
import { measureBareRoute, measurePgbench } from './lib/ceilings';
import { parseOptions } from './lib/options';
import { createDatabase, describeServer, dropCreatedDatabases, dropDatabase, isPostgresReachable, queryDatabase, ADMIN_URL } from './lib/postgres';
import { killChildren, runCommand, SERVER_ENTRY, startAppServer } from './lib/processes';
import { describeMachine, evaluateFloors, formatReport, newBenchResult, withRatios } from './lib/report';
import { measureScenario, prepare, SCENARIOS, type ScenarioName } from './lib/scenarios';

const options = parseOptions(process.argv.slice(2));
const strict = process.argv.includes('--strict');
// Profiling and before/after comparisons of one scenario: no pgbench, no bare route.
const skipCeilings = process.argv.includes('--skip-ceilings');
const log = (line: string) => console.log(`[bench] ${line}`);

function skipOrFail(message: string): never {
  if (process.env.CI === 'true') {
    console.error(`ERROR: ${message}`);
    process.exit(1);
  }
  console.warn(`\n*** SKIPPING THE BENCHMARK${options.smoke ? ' SMOKE' : ''}: ${message} ***\n`);
  process.exit(0);
}

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    killChildren();
    await dropCreatedDatabases();
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.warn(`[bench] ${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first (npm run bench does).`);
  if (!(await isPostgresReachable())) skipOrFail(`PostgreSQL is not reachable at ${ADMIN_URL}.`);
  if ((await runCommand('pgbench', ['--version']).catch(() => ({ code: 1 }))).code !== 0) skipOrFail('pgbench is not installed (apt-get install -y postgresql-contrib).');

  const wanted = new Set<ScenarioName>((options.only ?? SCENARIOS).filter((s): s is ScenarioName => (SCENARIOS as readonly string[]).includes(s)));
  if (wanted.size === 0) throw new Error(`--only names none of ${SCENARIOS.join(', ')}`);
  const result = newBenchResult({
    mode: options.smoke ? 'smoke' : 'full',
    date: new Date().toISOString(),
    machine: describeMachine(),
    postgres: await describeServer(),
    options: { connections: options.connections, warmupSeconds: options.warmupSeconds, measureSeconds: options.measureSeconds, pgbenchScale: options.pgbenchScale },
  });
  log(`${result.mode} run; ${result.machine}`);

  if (skipCeilings) {
    log('ceilings skipped (--skip-ceilings): no ratios, no floors on throughput');
  } else {
    log(`ceiling 1: pgbench TPC-B-like, scale ${options.pgbenchScale}, ${options.connections} clients, ${options.measureSeconds} s`);
    result.pgbench = await measurePgbench({ clients: options.connections, seconds: options.measureSeconds, scale: options.pgbenchScale });
    log(`  ${result.pgbench.tps.toFixed(0)} tps`);
    log('ceiling 2: bare Fastify route');
    result.bare = await measureBareRoute({ connections: options.connections, warmupSeconds: options.warmupSeconds, seconds: options.measureSeconds });
    log(`  ${result.bare.rps.toFixed(0)} req/s`);
  }

  const dbName = `payweave_bench_${process.pid}`;
  const databaseUrl = await createDatabase(dbName);
  const server = await startAppServer(databaseUrl);
  log(`server (dist/server/main.mjs) on ${server.url}, database ${dbName}`);
  try {
    // The launch promo is for the first 100 cards only; the steady state the bench measures is
    // after it, when no completion touches the shared counter row (and no quote changes mid-run).
    await queryDatabase(databaseUrl, 'update system_promos set first_100_promo_claimed = limit_count');
    const prepared = await prepare(server.url, options, wanted, log);
    for (const name of SCENARIOS) {
      if (!wanted.has(name)) continue;
      // Each scenario starts on a settled database, as pgbench vacuums its tables before its run:
      // the previous scenario's dead rows and stale statistics are not this one's to pay for.
      await queryDatabase(databaseUrl, 'vacuum analyze');
      log(`scenario: ${name}`);
      const figures = await measureScenario(name, server.url, options, prepared, server.child.pid);
      result.scenarios[name] = { ...figures, ratio: null };
      log(`  ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.non2xx} non-2xx, ${figures.errors} errors`);
      if (figures.cpu) log(`  CPU per answer: PostgreSQL ${figures.cpu.postgresMs.toFixed(2)} ms, server ${figures.cpu.serverMs.toFixed(2)} ms, load generator ${figures.cpu.benchMs.toFixed(2)} ms`);
      for (const failure of figures.failures) log(`  e.g. ${failure}`);
    }
  } finally {
    await server.stop();
    await dropDatabase(dbName);
  }

  if (!skipCeilings) {
    // Measured again after the scenarios, which take minutes: on a shared host the speed moves
    // within a run (pgbench by up to 2x within the hour), and a ceiling taken only before the
    // scenarios would make their ratios depend on when in the run each one ran.
    log('ceilings again, after the scenarios');
    result.pgbenchAfter = await measurePgbench({ clients: options.connections, seconds: options.measureSeconds, scale: options.pgbenchScale });
    log(`  pgbench ${result.pgbenchAfter.tps.toFixed(0)} tps`);
    result.bareAfter = await measureBareRoute({ connections: options.connections, warmupSeconds: options.warmupSeconds, seconds: options.measureSeconds });
    log(`  bare route ${result.bareAfter.rps.toFixed(0)} req/s`);
  }
  result.scenarios = withRatios(result);
  result.floors = evaluateFloors(result);
  console.log(`\n${formatReport(result)}\n`);
  if (options.jsonOut) writeFileSync(options.jsonOut, JSON.stringify(result, null, 2) + '\n');
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // Wrong answers are a broken benchmark in any mode; missed floors fail only with --strict.
  const broken = Object.entries(result.scenarios).filter(([, f]) => f.non2xx > 0 || f.errors > 0 || f.requests === 0);
  if (broken.length > 0) {
    console.error(`ERROR: scenarios with failed requests: ${broken.map(([name]) => name).join(', ')}`);
    return 1;
  }
  if (strict && !options.smoke && result.floors.some((f) => !f.met)) return 1;
  return 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
