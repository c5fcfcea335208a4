// Hot statements, built once. Drizzle's `.prepare(name)` gives a named statement (PostgreSQL
// parses and plans it once per connection), but a query builder belongs to one handle: inside a
// transaction it has to be built again for every request, and building a wide statement costs
// 60–75 µs of CPU (docs/history/performance-log.md, round 4). Here the builder runs once per session class, with
// `sql.placeholder(...)` for every value, and each call runs that prepared query on the caller's
// connection (the pool or the transaction's client).
//
// This leans on one Drizzle internal, checked by named-statement.test.ts: a
// prepared query runs on its `client` property, and a session holds its connection in `client`.
// Because of it drizzle-orm is pinned to one exact version in package.json (decision 102): an
// upgrade is a deliberate change, with this file's tests run first.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';

type Execute<TResult> = { execute(values?: Record<string, unknown>): Promise<TResult> };

// Every named statement's text, by name: PostgreSQL keeps the plan it settles on for each
// (generic, made once per connection, whatever the tables held then), so named-statement-plans.test.ts
// plans them all on an empty database and refuses a table scan. Filled as modules load.
const texts = new Map<string, (db: DbOrTx) => SQL>();

/** The SQL of every named statement defined so far (for the plans' test). */
export function namedStatementTexts(): ReadonlyMap<string, (db: DbOrTx) => SQL> {
  return texts;
}
type Prepared<TResult> = Execute<TResult> & { client: unknown };
type Session = { client: unknown; constructor: unknown };

function sessionOf(db: DbOrTx): Session {
  const session = (db as unknown as { session?: Session }).session;
  if (!session || !('client' in session)) throw new Error('namedStatement: this database handle has no session client');
  return session;
}

/**
 * A statement whose SQL text is built once per process and engine. `build` returns a Drizzle query
 * builder whose every value is a `sql.placeholder(name)`; the returned function runs it on `db`
 * with `values` for the placeholders.
 */
export function namedStatement<TResult>(
  name: string,
  build: (db: DbOrTx) => { prepare(name: string): Execute<TResult> },
): (db: DbOrTx, values?: Record<string, unknown>) => Promise<TResult> {
  if (texts.has(name)) throw new Error(`namedStatement ${name}: the name is taken`);
  texts.set(name, (db) => {
    const query = build(db) as unknown as { getSQL?: () => SQL };
    if (!query.getSQL) throw new Error(`namedStatement ${name}: the builder has no SQL to show`);
    return query.getSQL();
  });
  // One per session class (the pool's and a transaction's).
  const byEngine = new Map<unknown, Prepared<TResult>>();
  return (db, values) => {
    const session = sessionOf(db);
    let template = byEngine.get(session.constructor);
    if (!template) {
      template = build(db).prepare(name) as Prepared<TResult>;
      if (!('client' in template)) throw new Error(`namedStatement ${name}: the prepared query has no client to rebind`);
      byEngine.set(session.constructor, template);
    }
    if (template.client === session.client) return template.execute(values);
    // The same prepared query, run on this handle's connection.
    const bound = Object.create(template) as Prepared<TResult>;
    bound.client = session.client;
    return bound.execute(values);
  };
}

/**
 * How many rows a WITH clause of the same statement wrote (an int), without an aggregate:
 * `(select count(*) from clause)` is an Agg node, whose state PostgreSQL builds again on every
 * call of a kept plan. The completion's statement counts eight clauses; counted this way it costs
 * PostgreSQL about 7% less CPU (decision 152).
 */
export function rowsWritten(clause: string): SQL {
  if (!/^[a-z_]+$/.test(clause)) throw new Error(`rowsWritten: ${clause} is not a clause name`);
  return sql.raw(`cardinality(array(select 1 from ${clause}))`);
}

/** A placeholder where Drizzle's types want SQL (update's `set`, comparisons): `param('amountCents')`. */
export function param(name: string): SQL {
  return sql`${sql.placeholder(name)}`;
}

// Drizzle's own path for db.execute(sql), with a name: session.prepareQuery(dialect.sqlToQuery(…)).
type RawInternals = {
  dialect: { sqlToQuery(query: SQL): unknown };
  session: { prepareQuery(query: unknown, fields: undefined, name: string, isResponseInArrayMode: boolean): Execute<unknown> };
};

/**
 * A hand-written statement (data-modifying WITH clauses that the query builder cannot express) as
 * a named statement built once. Every value is a `sql.placeholder(...)`; the result is the
 * driver's (read it with `rowsOf`).
 */
export function namedSqlStatement(name: string, build: () => SQL): (db: DbOrTx, values?: Record<string, unknown>) => Promise<unknown> {
  return namedStatement<unknown>(name, (db) => ({
    getSQL: build,
    prepare: (statementName) => {
      const internals = db as unknown as RawInternals;
      return internals.session.prepareQuery(internals.dialect.sqlToQuery(build()), undefined, statementName, false);
    },
  }));
}

/**
 * The values of a statement composed of pieces (the journal's clauses, a debit, the outbox's rows,
 * the statement's own), each piece's values given under its name. Placeholders are named, and a
 * name two pieces both give would silently share one value: that clash throws, naming both pieces.
 */
export function placeholderValues(pieces: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const owner = new Map<string, string>();
  for (const [piece, values] of Object.entries(pieces)) {
    for (const [name, value] of Object.entries(values)) {
      const first = owner.get(name);
      if (first !== undefined) throw new Error(`placeholder ${name} is given by both ${first} and ${piece}`);
      owner.set(name, piece);
      merged[name] = value;
    }
  }
  return merged;
}
