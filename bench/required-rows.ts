// What the rows a cash-out and a completion must write cost PostgreSQL by themselves, against the
// TPC-B yardstick of DECISIONS §8, in one run: a lower bound under the money paths' ratios that
// no change of the app can go below (docs/decisions/148-what-the-required-rows-cost.md).
//
//   npm run bench:rows                       a warm-up, then 3 rounds of 15 s each (about 3 minutes)
//   npm run bench:rows -- --rounds 1 --seconds 5
//   npx tsx bench/required-rows.ts --smoke  one round of 1 s: that it runs (the end of `npm run bench:smoke`)
//
// Each round runs pgbench three times, alternating: the bench's TPC-B-like yardstick (the same
// function as `npm run bench`), then bench/required-rows/cashout.sql and completion.sql, each a
// single prepared statement that writes only the rows the product's rules require (the ledger,
// the idempotent answer, the outbox), on the app's own schema (its migrations), with 32 clients.
// The app's CPU and every check it makes are left out, so the ratios printed are lower bounds.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { measurePgbench } from './lib/ceilings';
import { closeCpuMeter, startCpuWindow } from './lib/cpu';
import { connectionParts, createDatabase, databaseUrl, dropCreatedDatabases, isPostgresReachable, queryDatabase } from './lib/postgres';
import { projectRoot, runCommand } from './lib/processes';

const CLIENTS = 32; // the bench's connections (bench/lib/options.ts)
const SCALE = 32; // the bench's pgbench scale
const WARMUP_SECONDS = 5;
const here = path.join(projectRoot, 'bench', 'required-rows');

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

/** A scratch database with the app's migrations and the seed; the system ledger accounts' ids as pgbench variables. */
async function prepareDatabase(): Promise<{ name: string; variables: Record<string, string> }> {
  const name = `payweave_rows_${process.pid}`;
  const url = await createDatabase(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: path.join(projectRoot, 'migrations') });
    await client.query(readFileSync(path.join(here, 'seed.sql'), 'utf8'));
    await client.query('vacuum analyze');
    const { rows } = await client.query<{ code: string; id: string }>("select code, id from ledger_accounts where code like 'system:%'");
    const system = new Map(rows.map((r) => [r.code, r.id]));
    const account = (code: string) => {
      const id = system.get(`system:${code}`);
      if (!id) throw new Error(`the migrations did not seed system:${code}`);
      return id;
    };
    return {
      name,
      variables: {
        payouts: account('payouts'),
        cashout_fee: account('cashout_fee_revenue'),
        funding: account('funding_sources'),
        processor: account('processor_fees'),
        product: account('product_fee_revenue'),
        creation: account('creation_fee_revenue'),
      },
    };
  } finally {
    await client.end();
  }
}

// A cash-out's answer as the app stores it (about 600 bytes); the completion's is a recorded one.
const CASHOUT_ANSWER = JSON.stringify({
  card: { id: '5da457de-9e62-44b9-9999-e94748842835', status: 'active', amountSpentCents: 100, remainingAmountCents: 900, last4: '4242', network: 'visa', type: 'general' },
  cashout: { id: '6784e9a5-0d62-4796-b4e1-f2ca6dae8eeb', amountCents: 100, feeCents: 1, netCents: 99, payoutMethod: 'ach', cardLast4: '4242', status: 'success', createdAt: '2026-11-26T15:10:30.780Z' },
  message: 'Cash-out of $0.99 to ACH is on its way.',
});

async function countJournals(database: string): Promise<number> {
  const { rows } = await queryDatabase(databaseUrl(database), 'select count(*) as n from journals');
  return Number(rows[0]?.n ?? 0);
}

/** PostgreSQL CPU per transaction of one pgbench script, prepared statements, CLIENTS clients. */
async function measureScript(database: string, script: string, variables: Record<string, string>, seconds: number): Promise<{ cpuMs: number }> {
  const { host, port, user } = connectionParts();
  const journalsBefore = await countJournals(database);
  const defines = Object.entries(variables).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
  const window = await startCpuWindow({ databases: [database] });
  const run = await runCommand('pgbench', [
    '-h', host, '-p', port, '-U', user, '-n', '-M', 'prepared',
    '-c', String(CLIENTS), '-j', String(Math.min(CLIENTS, os.availableParallelism())), '-T', String(seconds),
    '-f', path.join(here, script), ...defines, database,
  ]);
  const cpu = await window.stop();
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  if (run.code !== 0 || transactions === 0 || failed > 0) throw new Error(`pgbench ${script} failed:\n${run.stderr}\n${run.stdout}`);
  if (!cpu) throw new Error('PostgreSQL CPU is not readable from /proc here');
  // Every statement must have written its journal: one whose debit found nothing to debit would
  // write nothing and cost little, and the figure would mean nothing.
  const written = (await countJournals(database)) - journalsBefore;
  if (written !== transactions) throw new Error(`${script}: ${transactions} statements wrote ${written} journals`);
  return { cpuMs: cpu.postgresMs / transactions };
}

const fixed = (n: number, digits = 3) => n.toFixed(digits);

async function main() {
  if (!(await isPostgresReachable())) throw new Error('PostgreSQL is not reachable (set BENCH_POSTGRES_URL)');
  const smoke = process.argv.includes('--smoke');
  const rounds = argument('rounds', smoke ? 1 : 3);
  const seconds = argument('seconds', smoke ? 1 : 15);
  const warmupSeconds = smoke ? 1 : WARMUP_SECONDS;
  const scale = smoke ? 1 : SCALE;
  const { name, variables } = await prepareDatabase();
  const completionAnswer = readFileSync(path.join(here, 'completion-answer.json'), 'utf8').trim();
  const cashoutVariables = { ...variables, answer: CASHOUT_ANSWER };
  const completionVariables = { ...variables, answer: completionAnswer };
  // A warm-up, as in the bench: without it the first round's cash-outs cost up to 1.6 times the
  // next rounds' (the first writes to the freshly seeded pages), and the steady state is what counts.
  await measureScript(name, 'cashout.sql', cashoutVariables, warmupSeconds);
  await measureScript(name, 'completion.sql', completionVariables, warmupSeconds);
  console.log(`| round | TPC-B (bench's yardstick) | cash-out rows | ratio | completion rows | ratio |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (let round = 1; round <= rounds; round++) {
    const tpcb = await measurePgbench({ clients: CLIENTS, seconds, scale });
    if (!tpcb.cpu) throw new Error('PostgreSQL CPU is not readable from /proc here');
    const yardstick = tpcb.cpu.postgresMs;
    const cashout = await measureScript(name, 'cashout.sql', cashoutVariables, seconds);
    const completion = await measureScript(name, 'completion.sql', completionVariables, seconds);
    console.log(
      `| ${round} | ${fixed(yardstick)} ms | ${fixed(cashout.cpuMs)} ms | **${fixed(cashout.cpuMs / yardstick, 2)}** | ${fixed(completion.cpuMs)} ms | **${fixed(completion.cpuMs / yardstick, 2)}** |`,
    );
  }
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await closeCpuMeter();
    await dropCreatedDatabases();
  });
