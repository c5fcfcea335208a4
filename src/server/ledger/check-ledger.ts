// The ledger's invariants, checked from the data alone (npm run ledger:check, and after every
// money test): every journal sums to zero and has entries, every card's cached balances equal
// its ledger sum, no card balance is negative, and every card's figures add up:
// original = spent + remaining (docs/rules.md#card-figures; a cash-out and a use as a source count as spent).
// And no row points at a row that is not there (docs/decisions/181-storage-full-and-health.md):
// foreign keys hold most of these references, not all (REFERENCES says which), and a restore or a
// session with `session_replication_role = replica` writes past foreign keys anyway.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rowsOf } from './post-journal';

export type LedgerReport = { ok: boolean; journals: number; cards: number; problems: string[] };

export async function checkLedger(db: DbOrTx): Promise<LedgerReport> {
  const problems: string[] = [];
  const unbalanced = rowsOf<{ journal_id: string; total: string }>(
    await db.execute(sql`select journal_id, sum(amount_cents)::text as total from journal_entries group by journal_id having sum(amount_cents) <> 0`),
  );
  for (const row of unbalanced) problems.push(`journal ${row.journal_id} sums to ${row.total} cents`);

  const empty = rowsOf<{ id: string }>(
    await db.execute(sql`select j.id from journals j where not exists (select 1 from journal_entries e where e.journal_id = j.id)`),
  );
  for (const row of empty) problems.push(`journal ${row.id} has no entries`);

  const accountDrift = rowsOf<{ code: string; cached: string; ledger: string }>(
    await db.execute(sql`
      select a.code, a.balance_cents::text as cached, coalesce(sum(e.amount_cents), 0)::text as ledger
      from ledger_accounts a left join journal_entries e on e.account_id = a.id
      where a.kind = 'card'
      group by a.id, a.code, a.balance_cents
      having a.balance_cents <> coalesce(sum(e.amount_cents), 0)`),
  );
  for (const row of accountDrift) problems.push(`account ${row.code}: cached ${row.cached} cents, ledger ${row.ledger} cents`);

  const cardDrift = rowsOf<{ id: string; remaining: string; ledger: string }>(
    await db.execute(sql`
      select c.id, c.remaining_amount_cents::text as remaining, a.balance_cents::text as ledger
      from cards c left join ledger_accounts a on a.id = c.ledger_account_id
      where a.id is null or c.remaining_amount_cents <> a.balance_cents or c.remaining_amount_cents < 0`),
  );
  for (const row of cardDrift) problems.push(`card ${row.id}: remaining ${row.remaining} cents, ledger account ${row.ledger ?? 'missing'}`);

  // The CHECK cards_figures_add_up holds this on every write; the report says it from the data too.
  const figures = rowsOf<{ id: string; original: string; spent: string; remaining: string }>(
    await db.execute(sql`
      select id, original_amount_cents::text as original, amount_spent_cents::text as spent, remaining_amount_cents::text as remaining
      from cards where original_amount_cents <> amount_spent_cents + remaining_amount_cents`),
  );
  for (const row of figures) problems.push(`card ${row.id}: original ${row.original} cents is not spent ${row.spent} + remaining ${row.remaining}`);

  problems.push(...(await orphanProblems(db)));

  const counts = rowsOf<{ journals: string; cards: string }>(
    await db.execute(sql`select (select count(*) from journals)::text as journals, (select count(*) from cards)::text as cards`),
  )[0];
  return { ok: problems.length === 0, journals: Number(counts?.journals ?? 0), cards: Number(counts?.cards ?? 0), problems };
}

type Reference = {
  /** What the rows are, one and many: "journal entry", "journal entries". */
  row: string;
  rows: string;
  table: string;
  column: string;
  parent: string;
  /** What is missing, after the count: "without a journal", "of a missing user". */
  missing: string;
  /** How a row is named in the report (SQL over the table's columns); its id by default. */
  name?: string;
  /** Whether a foreign key holds the reference (migrations/): the others only this check holds. */
  foreignKey: boolean;
};

const ofUser = (row: string, rows: string, table: string, options: { foreignKey: boolean; name?: string }): Reference => ({
  row,
  rows,
  table,
  column: 'user_id',
  parent: 'users',
  missing: 'of a missing user',
  ...options,
});

/**
 * Every reference from a row to another (schema.ts), with or without a foreign key. Journals'
 * `reference_id` is left out: it names rows of several tables (a card, a cash-out, a combine).
 * A card's ledger account is checked above (a card whose account is missing is named there).
 */
export const REFERENCES: readonly Reference[] = [
  { row: 'journal entry', rows: 'journal entries', table: 'journal_entries', column: 'journal_id', parent: 'journals', missing: 'without a journal', foreignKey: true },
  { row: 'journal entry', rows: 'journal entries', table: 'journal_entries', column: 'account_id', parent: 'ledger_accounts', missing: 'without a ledger account', foreignKey: true },
  ofUser('journal', 'journals', 'journals', { foreignKey: false }),
  ofUser('ledger account', 'ledger accounts', 'ledger_accounts', { foreignKey: false, name: 'code' }),
  ofUser('card', 'cards', 'cards', { foreignKey: true }),
  { row: 'card', rows: 'cards', table: 'cards', column: 'combine_id', parent: 'combines', missing: 'of a missing combine', foreignKey: false },
  ofUser('transaction', 'transactions', 'transactions', { foreignKey: true }),
  { row: 'transaction', rows: 'transactions', table: 'transactions', column: 'card_id', parent: 'cards', missing: 'of a missing card', foreignKey: false },
  { row: 'transaction', rows: 'transactions', table: 'transactions', column: 'combine_id', parent: 'combines', missing: 'of a missing combine', foreignKey: false },
  { row: 'transaction', rows: 'transactions', table: 'transactions', column: 'journal_id', parent: 'journals', missing: 'naming a missing journal', foreignKey: false },
  ofUser('combine', 'combines', 'combines', { foreignKey: true }),
  { row: 'combine', rows: 'combines', table: 'combines', column: 'card_id', parent: 'cards', missing: 'naming a missing card', foreignKey: false },
  { row: 'combine', rows: 'combines', table: 'combines', column: 'rebate_id', parent: 'rebates', missing: 'naming a missing rebate', foreignKey: false },
  { row: 'combine source', rows: 'combine sources', table: 'combine_sources', column: 'combine_id', parent: 'combines', missing: 'without a combine', foreignKey: true },
  ofUser('combine source', 'combine sources', 'combine_sources', { foreignKey: false }),
  { row: 'combine source', rows: 'combine sources', table: 'combine_sources', column: 'source_card_id', parent: 'cards', missing: 'drawing on a missing card', foreignKey: false },
  ofUser('rebate', 'rebates', 'rebates', { foreignKey: true }),
  { row: 'rebate', rows: 'rebates', table: 'rebates', column: 'combine_id', parent: 'combines', missing: 'of a missing combine', foreignKey: false },
  { row: 'rebate', rows: 'rebates', table: 'rebates', column: 'card_id', parent: 'cards', missing: 'of a missing card', foreignKey: false },
  { row: 'rebate', rows: 'rebates', table: 'rebates', column: 'source_id', parent: 'combine_sources', missing: 'of a missing combine source', foreignKey: false },
  { row: 'rebate', rows: 'rebates', table: 'rebates', column: 'journal_id', parent: 'journals', missing: 'naming a missing journal', foreignKey: false },
  ofUser('subscription payment', 'subscription payments', 'subscription_payments', { foreignKey: true }),
  { row: 'subscription payment', rows: 'subscription payments', table: 'subscription_payments', column: 'journal_id', parent: 'journals', missing: 'naming a missing journal', foreignKey: false },
  ofUser('money effect', 'money effects', 'money_effects', { foreignKey: false, name: 'reference' }),
  ofUser('idempotency key', 'idempotency keys', 'idempotency_keys', { foreignKey: true, name: "user_id::text || ' ' || key" }),
  ofUser('payout method', 'payout methods', 'payout_methods', { foreignKey: true, name: "user_id::text || ' ' || method" }),
  ofUser('session', 'sessions', 'sessions', { foreignKey: true }),
  ofUser('password reset token', 'password reset tokens', 'password_reset_tokens', { foreignKey: true }),
  ofUser('two-factor unlock token', 'two-factor unlock tokens', 'two_factor_unlock_tokens', { foreignKey: true }),
  ofUser('recovery code', 'recovery codes', 'recovery_codes', { foreignKey: true }),
  ofUser('two-factor challenge', 'two-factor challenges', 'two_factor_challenges', { foreignKey: true }),
  ofUser('passkey', 'passkeys', 'passkeys', { foreignKey: true }),
  ofUser('passkey challenge', 'passkey challenges', 'passkey_challenges', { foreignKey: true }),
  { row: 'passkey challenge', rows: 'passkey challenges', table: 'passkey_challenges', column: 'session_id', parent: 'sessions', missing: 'of a missing session', foreignKey: true },
  ofUser('audit log entry', 'audit log entries', 'audit_log', { foreignKey: false }),
  { row: 'card spend controls', rows: 'card spend controls', table: 'card_spend_controls', column: 'card_id', parent: 'cards', missing: 'of a missing card', foreignKey: true, name: 'card_id' },
  ofUser('event', 'events', 'events', { foreignKey: true }),
  ofUser('webhook endpoint', 'webhook endpoints', 'webhook_endpoints', { foreignKey: true }),
  { row: 'webhook delivery', rows: 'webhook deliveries', table: 'webhook_deliveries', column: 'endpoint_id', parent: 'webhook_endpoints', missing: 'to a missing endpoint', foreignKey: true },
  { row: 'webhook delivery', rows: 'webhook deliveries', table: 'webhook_deliveries', column: 'event_id', parent: 'events', missing: 'of a missing event', foreignKey: true },
];

/** How many rows a problem names at most; the count says how many there are. */
const NAMED_ROWS = 20;

/** Rows that point at a row that is not there, one problem per kind: "3 journal entries without a journal: …". */
async function orphanProblems(db: DbOrTx): Promise<string[]> {
  const problems: string[] = [];
  for (const reference of REFERENCES) {
    const name = reference.name ?? 'id::text';
    // Identifiers from the list above, never from input.
    const rows = rowsOf<{ name: string; total: string }>(
      await db.execute(
        sql.raw(`select ${name} as name, count(*) over ()::text as total from ${reference.table} child
          where child.${reference.column} is not null and not exists (select 1 from ${reference.parent} parent where parent.id = child.${reference.column})
          order by 1 limit ${NAMED_ROWS}`),
      ),
    );
    if (rows.length === 0) continue;
    const total = Number(rows[0]!.total);
    const more = total > rows.length ? ` and ${total - rows.length} more` : '';
    problems.push(`${total} ${total === 1 ? reference.row : reference.rows} ${reference.missing}: ${rows.map((row) => row.name).join(', ')}${more}`);
  }
  return problems;
}
