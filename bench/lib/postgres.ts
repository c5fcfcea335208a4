// The benchmark's own databases on the PostgreSQL server: created at the start, dropped at the end
// (also after a failure or Ctrl-C), named after the bench's process id.
import pg from 'pg';

export const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** host, port and user for command-line tools (pgbench, psql); `?host=/dir` is a Unix socket directory. */
export function connectionParts(): { host: string; port: string; user: string } {
  const url = new URL(ADMIN_URL);
  return { host: url.searchParams.get('host') || url.hostname || '127.0.0.1', port: url.port || '5432', user: decodeURIComponent(url.username || 'postgres') };
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function isPostgresReachable(): Promise<boolean> {
  try {
    await withAdmin((client) => client.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

/** Server version and the settings that decide write throughput, for the report. */
export async function describeServer(): Promise<string> {
  return withAdmin(async (client) => {
    const version = (await client.query<{ v: string }>('select version() as v')).rows[0]?.v ?? '?';
    const settings = await client.query<{ name: string; setting: string; unit: string | null }>(
      "select name, setting, unit from pg_settings where name in ('shared_buffers', 'synchronous_commit', 'fsync', 'max_connections', 'wal_level')",
    );
    const shown = settings.rows.map((r) => `${r.name}=${r.setting}${r.unit ?? ''}`).join(', ');
    return `${version.split(',')[0]} (${shown})`;
  });
}

const created = new Set<string>();

export async function createDatabase(name: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
  await withAdmin(async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  created.add(name);
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
  created.delete(name);
}

/** Drops every database this process created and has not dropped yet. */
export async function dropCreatedDatabases(): Promise<void> {
  for (const name of [...created]) {
    await dropDatabase(name).catch((error: unknown) => console.warn(`could not drop ${name}: ${String(error)}`));
  }
}

/** One query on the bench's own database (setup shortcuts that the API has no endpoint for). */
export async function queryDatabase(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Resolves once the app has carried out every money effect it wrote (payouts, captures): the
 * outbox is part of what a cash-out or a completion costs, so a measured window ends only when it
 * is empty (decision 134). One connection, polled every 100 ms (a count on a partial index).
 */
export async function outboxSettled(url: string, timeoutMs = 120_000): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ pending: number }>("select count(*)::int as pending from money_effects where status = 'pending'");
      if ((rows[0]?.pending ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0]?.pending} money effects still pending after ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end().catch(() => {});
  }
}
