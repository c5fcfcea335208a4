// `npm run bench` (docs/performance.md, decision 060): the production build on a PostgreSQL database
// of its own, driven by autocannon from this process at 32 connections after a warm-up, and judged
// by the CPU ratios of docs/rules.md#perf-same-run against yardsticks measured in the same run, before and after
// the scenarios (decision 019): PostgreSQL's CPU per pgbench TPC-B transaction, the bare Fastify
// route's CPU per answer, the host's argon2id rate, and what the rows a cash-out and a completion
// must write cost PostgreSQL alone (decision 155). Then two floods beside honest traffic: a
// sign-in flood (isolation) and the attack from 16 addresses with rate limits on.
//
//   npm run bench                  full run (builds first), floors checked and reported
//   npm run bench -- --smoke       seconds only, no floors (BENCH_SMOKE=1 too); part of npm test
//   npm run bench -- --strict      exit 1 when a floor is missed
//   npm run bench -- --only cash-out,list-cards,isolation,attack   some scenarios only (profiling)
//   npm run bench -- --json out.json              the figures as JSON too
//   npm run bench -- --skip-ceilings              scenarios only (A/B runs; BENCH_SERVER_ENTRY=other bundle)
import { existsSync, writeFileSync } from 'node:fs';
import { measureArgon2Rate } from './lib/argon2-rate';
import { measureBareRoute, measurePgbench } from './lib/ceilings';
import { closeCpuMeter } from './lib/cpu';
import { measureAttack, measureIsolation, prepareAttack, type FloodResult } from './lib/flood';
import { parseOptions } from './lib/options';
import { measureRequiredRows } from './lib/required-rows';
import { createDatabase, describeServer, dropCreatedDatabases, dropDatabase, isPostgresReachable, outboxSettled, queryDatabase, ADMIN_URL } from './lib/postgres';
import { killChildren, runCommand, SERVER_ENTRY, startAppServer } from './lib/processes';
import { computeRatios, describeMachine, evaluateFloors, formatReport, kernelShare, newBenchResult } from './lib/report';
import { measureScenario, prepare, SCENARIOS, type ScenarioName } from './lib/scenarios';

const options = parseOptions(process.argv.slice(2));
const FLOODS = ['isolation', 'attack'] as const;
const strict = process.argv.includes('--strict');
// Profiling and before/after comparisons of one scenario: no pgbench, no bare route.
const skipCeilings = process.argv.includes('--skip-ceilings');
const began = performance.now();
const log = (line: string) => console.log(`[bench] ${((performance.now() - began) / 1000).toFixed(0).padStart(3)}s ${line}`);

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
    await closeCpuMeter();
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

  const known: readonly string[] = [...SCENARIOS, ...FLOODS];
  const unknown = (options.only ?? []).filter((s) => !known.includes(s));
  if (unknown.length > 0) throw new Error(`--only: ${unknown.join(', ')} is none of ${known.join(', ')}`);
  const wanted = new Set<string>(options.only ?? known);
  const result = newBenchResult({
    mode: options.smoke ? 'smoke' : 'full',
    date: new Date().toISOString(),
    machine: describeMachine(),
    postgres: await describeServer(),
    options: { connections: options.connections, warmupSeconds: options.warmupSeconds, measureSeconds: options.measureSeconds, pgbenchScale: options.pgbenchScale, isolationSeconds: options.isolationSeconds },
  });
  log(`${result.mode} run; ${result.machine}`);

  // The yardsticks of docs/rules.md#perf-same-run, before the scenarios and again after them (decision 019): on a
  // shared host the speed moves within a run, and the CPU per unit moves with it, less.
  const yardsticks = async (when: 'before' | 'after') => {
    log(`yardsticks (${when}): pgbench TPC-B-like, scale ${options.pgbenchScale}, ${options.connections} clients, ${options.measureSeconds} s`);
    const p = await measurePgbench({ clients: options.connections, seconds: options.measureSeconds, scale: options.pgbenchScale });
    log(`  ${p.tps.toFixed(0)} tps, PostgreSQL ${p.cpu?.postgresMs.toFixed(3) ?? 'n/a'} ms CPU per transaction (server-wide ${p.cpu?.postgresAllMs.toFixed(3) ?? 'n/a'}; ${p.cpu ? kernelShare(p.cpu) : 'n/a'} in the kernel)`);
    log('  bare Fastify route');
    const b = await measureBareRoute({ connections: options.connections, warmupSeconds: options.warmupSeconds, seconds: options.measureSeconds });
    log(`  ${b.rps.toFixed(0)} req/s, server ${b.cpu?.serverMs.toFixed(4) ?? 'n/a'} ms CPU per answer`);
    log(`  argon2id verifications on all cores, ${options.argon2Seconds} s`);
    const a = await measureArgon2Rate(options.argon2Seconds);
    log(`  ${a.rate.toFixed(1)}/s, ${a.cpuMsPerVerification.toFixed(2)} ms CPU per verification`);
    log('  the rows a cash-out and a completion must write, alone (pgbench)');
    const r = await measureRequiredRows({ seconds: options.measureSeconds, warmupSeconds: options.warmupSeconds });
    log(`  ${r.seconds} s each: cash-out rows ${r.cashout.postgresMs.toFixed(3)} ms, completion rows ${r.completion.postgresMs.toFixed(3)} ms of PostgreSQL CPU per statement`);
    return { p, b, a, r };
  };
  if (skipCeilings) {
    log('yardsticks skipped (--skip-ceilings): CPU per answer only, no ratios');
  } else {
    const y = await yardsticks('before');
    result.pgbench = y.p;
    result.bare = y.b;
    result.argon2 = y.a;
    result.rows = y.r;
  }

  const dbName = `payweave_bench_${process.pid}`;
  const databaseUrl = await createDatabase(dbName);
  const databases = [dbName];
  try {
    const server = await startAppServer(databaseUrl);
    log(`server (${SERVER_ENTRY}) on ${server.url}, database ${dbName}`);
    try {
      // The launch promo is for the first 100 cards only; the steady state the bench measures is
      // after it, when no completion touches the shared counter row (and no quote changes mid-run).
      await queryDatabase(databaseUrl, 'update system_promos set first_100_promo_claimed = limit_count');
      const needs = new Set<ScenarioName>(SCENARIOS.filter((s) => wanted.has(s)));
      if (wanted.has('isolation')) needs.add('list-cards').add('cash-out');
      const prepared = await prepare(server.url, options, needs, log);
      for (const name of SCENARIOS) {
        if (!wanted.has(name)) continue;
        // Each measured run starts on a settled database, as pgbench vacuums its tables before its
        // run: the previous scenario's dead rows are not this one's to pay for. The statistics are
        // taken after the warm-up, so the plans fit the tables the measured run writes to, not the
        // nearly empty ones the preparation left (decision 143).
        log(`scenario: ${name}`);
        const settle = async () => {
          await queryDatabase(databaseUrl, 'vacuum analyze');
        };
        const figures = await measureScenario(name, server.url, options, prepared, server.child.pid, databases, () => outboxSettled(databaseUrl), settle);
        result.scenarios[name] = figures;
        log(`  ${figures.rps.toFixed(0)} answers/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.non2xx} non-2xx, ${figures.errors} errors`);
        if (figures.cpu) log(`  CPU per answer: PostgreSQL ${figures.cpu.postgresMs.toFixed(3)} ms (server-wide ${figures.cpu.postgresAllMs.toFixed(3)}; ${kernelShare(figures.cpu)} in the kernel), server ${figures.cpu.serverMs.toFixed(3)} ms, load generator ${figures.cpu.benchMs.toFixed(3)} ms`);
        for (const failure of figures.failures) log(`  e.g. ${failure}`);
      }
      if (wanted.has('isolation')) {
        await queryDatabase(databaseUrl, 'vacuum analyze');
        log(`isolation: card lists and cash-outs, ${options.isolationSeconds} s alone, then ${options.isolationSeconds} s beside a sign-in flood`);
        result.isolation = await measureIsolation(server.url, options, prepared, server.child.pid, databases);
        logFlood(result.isolation);
      }
    } finally {
      await server.stop();
    }
    if (wanted.has('attack')) {
      // Rate limits on, and the client's address taken from X-Forwarded-For, as behind a balancer.
      const guarded = await startAppServer(databaseUrl, { RATE_LIMIT_DISABLED: 'false', TRUST_PROXY: 'true' });
      try {
        log(`attack: server with rate limits and TRUST_PROXY on ${guarded.url}`);
        const attackPrepared = await prepareAttack(guarded.url, options);
        await queryDatabase(databaseUrl, 'vacuum analyze');
        log(`  honest traffic ${options.attackSeconds} s alone, then ${options.attackSeconds} s beside 16 attacking connections`);
        result.attack = await measureAttack(guarded.url, options, attackPrepared, guarded.child.pid, databases);
        logFlood(result.attack);
      } finally {
        await guarded.stop();
      }
    }
  } finally {
    await dropDatabase(dbName);
  }

  // The smoke checks that every part runs; measuring the yardsticks twice is for the full run.
  if (!skipCeilings && !options.smoke) {
    const y = await yardsticks('after');
    result.pgbenchAfter = y.p;
    result.bareAfter = y.b;
    result.argon2After = y.a;
    result.rowsAfter = y.r;
  }
  result.ratios = computeRatios(result);
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

function logFlood(flood: FloodResult): void {
  for (const [phase, figures] of [['alone', flood.unloaded], ['flood', flood.loaded]] as const) {
    for (const [stream, f] of Object.entries(figures)) {
      const failed = f.sent - f.ok;
      log(`  ${phase}: ${stream}: ${f.sent} sent, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms${failed ? `, ${failed} not 2xx (${f.examples[0] ?? ''})` : ''}`);
    }
  }
  log(`  the flood: ${JSON.stringify(flood.flood.statuses)}${flood.flood.failures.length ? `, e.g. ${flood.flood.failures[0]}` : ''}`);
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
