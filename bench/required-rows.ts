// What the rows a cash-out and a completion must write cost PostgreSQL by themselves, against the
// TPC-B yardstick of docs/rules.md#perf-same-run, in one run: a lower bound under the money paths' ratios that
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
import { measurePgbench } from './lib/ceilings';
import { closeCpuMeter } from './lib/cpu';
import { dropCreatedDatabases, isPostgresReachable } from './lib/postgres';
import { measureRowsScript, prepareRowsDatabase, ROWS_CLIENTS } from './lib/required-rows';

const SCALE = 32; // the bench's pgbench scale
const WARMUP_SECONDS = 5;

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

const fixed = (n: number, digits = 3) => n.toFixed(digits);

async function main() {
  if (!(await isPostgresReachable())) throw new Error('PostgreSQL is not reachable (set BENCH_POSTGRES_URL)');
  const smoke = process.argv.includes('--smoke');
  const rounds = argument('rounds', smoke ? 1 : 3);
  const seconds = argument('seconds', smoke ? 1 : 15);
  const warmupSeconds = smoke ? 1 : WARMUP_SECONDS;
  const scale = smoke ? 1 : SCALE;
  const database = await prepareRowsDatabase(`payweave_rows_${process.pid}`);
  // A warm-up, as in the bench: without it the first round's cash-outs cost up to 1.6 times the
  // next rounds' (the first writes to the freshly seeded pages), and the steady state is what counts.
  await measureRowsScript(database, 'cashout.sql', warmupSeconds);
  await measureRowsScript(database, 'completion.sql', warmupSeconds);
  console.log(`| round | TPC-B (bench's yardstick) | cash-out rows | ratio | completion rows | ratio |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (let round = 1; round <= rounds; round++) {
    const tpcb = await measurePgbench({ clients: ROWS_CLIENTS, seconds, scale });
    if (!tpcb.cpu) throw new Error('PostgreSQL CPU is not readable from /proc here');
    const yardstick = tpcb.cpu.postgresMs;
    const cashout = await measureRowsScript(database, 'cashout.sql', seconds);
    const completion = await measureRowsScript(database, 'completion.sql', seconds);
    console.log(
      `| ${round} | ${fixed(yardstick)} ms | ${fixed(cashout.postgresMs)} ms | **${fixed(cashout.postgresMs / yardstick, 2)}** | ${fixed(completion.postgresMs)} ms | **${fixed(completion.postgresMs / yardstick, 2)}** |`,
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
