// What the rows a cash-out and a completion must write cost PostgreSQL by themselves (decision 148):
// each of bench/required-rows/cashout.sql and completion.sql is one prepared statement that writes
// only the rows the product's rules require (the ledger, the idempotent answer, the outbox) on the
// app's own schema, run by pgbench at the bench's 32 clients. `npm run bench:rows` prints them
// against the TPC-B yardstick; `npm run bench` measures them beside its other yardsticks, so that
// the money answers can also be weighed against their own rows in the same run (decision 155).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { pgbenchSeconds } from './ceilings';
import { startCpuWindow } from './cpu';
import { connectionParts, createDatabase, databaseUrl, dropDatabase, queryDatabase } from './postgres';
import { projectRoot, runCommand } from './processes';

export const ROWS_CLIENTS = 32; // the bench's connections (bench/lib/options.ts)
const here = path.join(projectRoot, 'bench', 'required-rows');

export type RowsScript = 'cashout.sql' | 'completion.sql';

/** PostgreSQL CPU per statement of each script (ms), with its share in the kernel. */
export type RequiredRowsFigures = {
  seconds: number;
  cashout: { postgresMs: number; postgresSystemMs: number; statements: number };
  completion: { postgresMs: number; postgresSystemMs: number; statements: number };
};

export type RowsDatabase = { name: string; variables: Record<RowsScript, Record<string, string>> };

// A cash-out's answer as the app stores it (about 600 bytes); the completion's is a recorded one.
const CASHOUT_ANSWER = JSON.stringify({
  card: { id: '5da457de-9e62-44b9-9999-e94748842835', status: 'active', amountSpentCents: 100, remainingAmountCents: 900, last4: '4242', network: 'visa', type: 'general' },
  cashout: { id: '6784e9a5-0d62-4796-b4e1-f2ca6dae8eeb', amountCents: 100, feeCents: 1, netCents: 99, payoutMethod: 'ach', cardLast4: '4242', status: 'success', createdAt: '2026-11-26T15:10:30.780Z' },
  message: 'Cash-out of $0.99 to ACH is on its way.',
});

/** A scratch database with the app's migrations and the seed; each script's pgbench variables. */
export async function prepareRowsDatabase(name: string): Promise<RowsDatabase> {
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
    const accounts = {
      payouts: account('payouts'),
      cashout_fee: account('cashout_fee_revenue'),
      funding: account('funding_sources'),
      processor: account('processor_fees'),
      product: account('product_fee_revenue'),
      creation: account('creation_fee_revenue'),
    };
    const completionAnswer = readFileSync(path.join(here, 'completion-answer.json'), 'utf8').trim();
    return { name, variables: { 'cashout.sql': { ...accounts, answer: CASHOUT_ANSWER }, 'completion.sql': { ...accounts, answer: completionAnswer } } };
  } finally {
    await client.end();
  }
}

async function countJournals(database: string): Promise<number> {
  const { rows } = await queryDatabase(databaseUrl(database), 'select count(*) as n from journals');
  return Number(rows[0]?.n ?? 0);
}

/** PostgreSQL CPU per statement of one script: prepared statements, ROWS_CLIENTS clients. */
export async function measureRowsScript(database: RowsDatabase, script: RowsScript, seconds: number): Promise<{ postgresMs: number; postgresSystemMs: number; statements: number }> {
  const { host, port, user } = connectionParts();
  const journalsBefore = await countJournals(database.name);
  const defines = Object.entries(database.variables[script]).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
  const window = await startCpuWindow({ databases: [database.name] });
  const run = await runCommand('pgbench', [
    '-h', host, '-p', port, '-U', user, '-n', '-M', 'prepared',
    '-c', String(ROWS_CLIENTS), '-j', String(Math.min(ROWS_CLIENTS, os.availableParallelism())), '-T', String(pgbenchSeconds(seconds)),
    '-f', path.join(here, script), ...defines, database.name,
  ]);
  const cpu = await window.stop();
  const statements = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  if (run.code !== 0 || statements === 0 || failed > 0) throw new Error(`pgbench ${script} failed:\n${run.stderr}\n${run.stdout}`);
  if (!cpu) throw new Error('PostgreSQL CPU is not readable from /proc here');
  // Every statement must have written its journal: one whose debit found nothing to debit would
  // write nothing and cost little, and the figure would mean nothing.
  const written = (await countJournals(database.name)) - journalsBefore;
  if (written !== statements) throw new Error(`${script}: ${statements} statements wrote ${written} journals`);
  return { postgresMs: cpu.postgresMs / statements, postgresSystemMs: cpu.postgresSystemMs / statements, statements };
}

/**
 * Both scripts on a scratch database of their own, after a warm-up of each (the first writes to
 * freshly seeded pages cost up to 1.6 times the steady state's), then dropped.
 */
export async function measureRequiredRows(options: { seconds: number; warmupSeconds: number }): Promise<RequiredRowsFigures> {
  const seconds = pgbenchSeconds(options.seconds);
  const database = await prepareRowsDatabase(`payweave_bench_rows_${process.pid}`);
  try {
    await measureRowsScript(database, 'cashout.sql', options.warmupSeconds);
    await measureRowsScript(database, 'completion.sql', options.warmupSeconds);
    const cashout = await measureRowsScript(database, 'cashout.sql', seconds);
    const completion = await measureRowsScript(database, 'completion.sql', seconds);
    return { seconds, cashout, completion };
  } finally {
    await dropDatabase(database.name);
  }
}
