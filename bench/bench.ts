// `npm run bench` (docs/performance.md, decision 187): the production build on a PostgreSQL database
// of its own, driven by autocannon from this process at 32 connections after a warm-up. With
// `--against <ref>` the ref is built in a temporary git worktree and the two servers alternate,
// round by round, on the same PostgreSQL (docs/rules.md#perf-same-run). Each answer but sign-in is
// then timed alone at an open-loop rate of half the capacity measured (docs/rules.md#perf-latency).
// Beside it, reported and not enforced, the headroom against yardsticks measured in the same run
// before and after the scenarios (decision 019): PostgreSQL's CPU per pgbench TPC-B transaction,
// the bare Fastify route's CPU per answer, the host's argon2id rate, and what the rows a cash-out
// and a completion must write cost PostgreSQL alone (decision 155). Then two floods beside honest
// traffic: a sign-in flood (isolation) and the attack from 16 addresses with rate limits on.
//
//   npm run bench                          full run (builds first), floors reported
//   npm run bench -- --against main        the same, with main built in a worktree and alternated (4 rounds)
//   npm run bench -- --strict              exit 1 when a floor is missed, saying which
//   npm run bench -- --smoke               seconds only, no floors (BENCH_SMOKE=1 too); part of npm test
//   npm run bench -- --against main --rounds 6 --allow-dearer cash-out
//   npm run bench -- --only cash-out,purchase,list-cards,isolation,attack   some scenarios only
//   npm run bench -- --skip-ceilings       no yardsticks (profiling)
//   npm run bench -- --json out.json       the figures as JSON too
import { existsSync, writeFileSync } from 'node:fs';
import { compareRuns, poolRounds, type AbRuns } from './lib/ab';
import { measureArgon2Rate } from './lib/argon2-rate';
import { measureBareRoute, measurePgbench } from './lib/ceilings';
import { closeCpuMeter } from './lib/cpu';
import { measureAttack, measureIsolation, prepareAttack, type FloodResult } from './lib/flood';
import { latencyRate, latencyRequestCount, latencyRequests, measureLatency } from './lib/latency';
import { parseOptions } from './lib/options';
import { measureRequiredRows } from './lib/required-rows';
import { describeServer, dropCreatedDatabases, dropDatabase, isPostgresReachable, outboxSettled, queryDatabase, ADMIN_URL } from './lib/postgres';
import { killChildren, runCommand, SERVER_ENTRY, startAppServer } from './lib/processes';
import { computeRatios, describeMachine, evaluateFloors, formatReport, kernelShare, newBenchResult } from './lib/report';
import { LATENCY_SCENARIOS, MONEY_SCENARIOS, prepareDrafts, SCENARIOS, type ScenarioName } from './lib/scenarios';
import { describeThisTree, measureRounds, startVersion, versionsToStart, type Version } from './lib/versions';
import { buildRef, removeRefWorktree, type RefBuild } from './lib/worktree';

const options = parseOptions(process.argv.slice(2));
const FLOODS = ['isolation', 'attack'] as const;
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
let interrupted = false;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    killChildren();
    await closeCpuMeter();
    await dropCreatedDatabases();
    await removeRefWorktree();
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    console.warn(`[bench] ${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first (npm run bench does).`);
  if (!(await isPostgresReachable())) skipOrFail(`PostgreSQL is not reachable at ${ADMIN_URL}.`);
  if (!options.skipCeilings && (await runCommand('pgbench', ['--version']).catch(() => ({ code: 1 }))).code !== 0) skipOrFail('pgbench is not installed (apt-get install -y postgresql-contrib).');

  const known: readonly string[] = [...SCENARIOS, ...FLOODS];
  const unknown = (options.only ?? []).filter((s) => !known.includes(s));
  if (unknown.length > 0) throw new Error(`--only: ${unknown.join(', ')} is none of ${known.join(', ')}`);
  const notMoney = options.allowDearer.filter((s) => !(MONEY_SCENARIOS as readonly string[]).includes(s));
  if (notMoney.length > 0) throw new Error(`--allow-dearer: ${notMoney.join(', ')} is none of ${MONEY_SCENARIOS.join(', ')}`);
  const wanted = new Set<string>(options.only ?? known);

  // The ref is built before anything is measured: its build's CPU is in no window.
  let ref: RefBuild | undefined;
  if (options.against) {
    log(`building ${options.against} in a worktree`);
    ref = await buildRef(options.against, log);
  }
  const result = newBenchResult({
    mode: options.smoke ? 'smoke' : 'full',
    date: new Date().toISOString(),
    machine: describeMachine(),
    postgres: await describeServer(),
    options: { connections: options.connections, warmupSeconds: options.warmupSeconds, measureSeconds: options.measureSeconds, pgbenchScale: options.pgbenchScale, isolationSeconds: options.isolationSeconds },
  });
  result.allowDearer = options.allowDearer;
  // What B is, taken now: the tree may move (a commit, an edit) while the run goes on.
  const thisTree = describeThisTree();
  log(`${result.mode} run${ref ? `, ${options.rounds} round${options.rounds === 1 ? '' : 's'} against ${ref.ref}` : ''}; ${result.machine}`);

  // The yardsticks, before the scenarios and again after them (decision 019): on a shared host the
  // speed moves within a run, and the CPU per unit moves with it, less.
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
  if (options.skipCeilings) {
    log('yardsticks skipped (--skip-ceilings): CPU per answer only, no headroom');
  } else {
    const y = await yardsticks('before');
    result.pgbench = y.p;
    result.bare = y.b;
    result.argon2 = y.a;
    result.rows = y.r;
  }

  const scenarios = SCENARIOS.filter((s) => wanted.has(s));
  const runs: AbRuns = {};
  const versions: Version[] = [];
  try {
    for (const v of versionsToStart(ref)) {
      if (v.key === 'a' && scenarios.length === 0) continue; // floods only: nothing to compare
      const needs = new Set<ScenarioName>(scenarios);
      if (v.key === 'b' && wanted.has('isolation')) needs.add('list-cards').add('cash-out');
      versions.push(await startVersion(v.key, v.label, v.build, options, needs, log));
    }
    const b = versions.find((v) => v.key === 'b') as Version;
    for (const name of scenarios) {
      log(`scenario: ${name}`);
      const figures = await measureRounds(name, versions, options, log);
      runs[name] = figures;
      result.scenarios[name] = poolRounds(figures.b);
    }
    for (const v of versions) if (v.key === 'a') await v.server.stop();

    for (const name of LATENCY_SCENARIOS.filter((s) => wanted.has(s))) {
      const capacity = result.scenarios[name]?.rps ?? 0;
      if (capacity <= 0) continue;
      const rate = latencyRate(capacity, options.latencyMaxRate);
      const count = latencyRequestCount(rate, options.latencySeconds);
      const drafts = name === 'combine-complete' ? await prepareDrafts(b.server.url, b.prepared.combineUsers, Math.ceil(count / b.prepared.combineUsers.length)) : [];
      await queryDatabase(b.databaseUrl, 'vacuum analyze');
      log(`latency: ${name}, ${count} requests at ${rate.toFixed(0)}/s (${rate < capacity / 2 ? 'the most the sender sends' : 'half'} of ${capacity.toFixed(0)}/s), open loop`);
      const figures = await measureLatency(b.server.url, latencyRequests(name, b.prepared, drafts), capacity, options.latencySeconds, options.latencyMaxRate);
      await outboxSettled(b.databaseUrl);
      result.latency[name] = figures;
      const refused = figures.sent - figures.ok;
      log(`  p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms${refused ? `, ${refused} not 2xx (${figures.examples[0] ?? ''})` : ''}`);
    }

    if (wanted.has('isolation')) {
      await queryDatabase(b.databaseUrl, 'vacuum analyze');
      log(`isolation: card lists and cash-outs, ${options.isolationSeconds} s alone, then ${options.isolationSeconds} s beside a sign-in flood`);
      result.isolation = await measureIsolation(b.server.url, options, b.prepared, b.server.child.pid, [b.dbName]);
      logFlood(result.isolation);
    }
    await b.server.stop();
    if (wanted.has('attack')) {
      // Rate limits on, and the client's address taken from X-Forwarded-For, as behind a balancer.
      const guarded = await startAppServer(b.databaseUrl, { RATE_LIMIT_DISABLED: 'false', TRUST_PROXY: 'true' }, b.build);
      try {
        log(`attack: server with rate limits and TRUST_PROXY on ${guarded.url}`);
        const attackPrepared = await prepareAttack(guarded.url, options);
        await queryDatabase(b.databaseUrl, 'vacuum analyze');
        log(`  honest traffic ${options.attackSeconds} s alone, then ${options.attackSeconds} s beside 16 attacking connections`);
        result.attack = await measureAttack(guarded.url, options, attackPrepared, guarded.child.pid, [b.dbName]);
        logFlood(result.attack);
      } finally {
        await guarded.stop();
      }
    }
  } finally {
    for (const v of versions) {
      await v.server.stop();
      await dropDatabase(v.dbName);
    }
    await removeRefWorktree();
  }

  // The smoke checks that every part runs; measuring the yardsticks twice is for the full run.
  if (!options.skipCeilings && !options.smoke) {
    const y = await yardsticks('after');
    result.pgbenchAfter = y.p;
    result.bareAfter = y.b;
    result.argon2After = y.a;
    result.rowsAfter = y.r;
  }
  if (ref) {
    result.ab = { against: { ref: ref.ref, commit: ref.commit, subject: ref.subject, dependencies: ref.dependencies }, head: thisTree, rounds: options.rounds, runs };
    result.comparisons = compareRuns(runs);
  }
  result.ratios = computeRatios(result);
  result.floors = evaluateFloors(result);
  console.log(`\n${formatReport(result)}\n`);
  if (options.jsonOut) writeFileSync(options.jsonOut, JSON.stringify(result, null, 2) + '\n');
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // Wrong answers are a broken benchmark in any mode (either version's); missed floors fail only with --strict.
  const broken = [
    ...Object.entries(runs).flatMap(([name, byVersion]) =>
      (['a', 'b'] as const).filter((k) => byVersion[k].some((f) => f.non2xx > 0 || f.errors > 0 || f.requests === 0)).map((k) => (ref ? `${name} (${k === 'a' ? 'A' : 'B'})` : name)),
    ),
    ...Object.entries(result.latency).filter(([, f]) => f.sent !== f.ok).map(([name]) => `${name} (latency)`),
  ];
  if (broken.length > 0) {
    console.error(`ERROR: scenarios with failed requests: ${broken.join(', ')}`);
    return 1;
  }
  const missed = result.floors.filter((f) => !f.met);
  if (options.strict && !options.smoke && missed.length > 0) {
    console.error(`FAILED (--strict): ${missed.length} floor${missed.length > 1 ? 's' : ''} missed:`);
    for (const f of missed) console.error(`  - ${f.scenario}: ${f.what}: ${f.value}`);
    return 1;
  }
  if (options.strict && !options.smoke && !ref) console.warn('--strict without --against: latency and isolation only; no comparison with main was made.');
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
    // After Ctrl-C the children were killed on purpose: their failures are not news.
    if (!interrupted) console.error(error);
    await cleanup();
    process.exit(1);
  });
