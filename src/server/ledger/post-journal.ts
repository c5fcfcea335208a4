// Posting a journal: one SQL statement that writes the journal, its entries, and the cached
// balances of card accounts, inside the caller's transaction. The invariants are asserted here
// before writing and enforced again by the database (deferred balance trigger, CHECKs).
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { namedSqlStatement, rowsWritten } from '../db/named-statement';
import type { AccountCode } from './accounts';

export type Posting = { accountCode: AccountCode; amountCents: number };

/** A row of `transactions` (what the user sees of a movement), written with its journal. */
export type JournalTransaction = {
  id: string;
  userId: string;
  cardId: string;
  type: 'cashout' | 'purchase' | 'funding' | 'transfer_in' | 'transfer_out';
  status: 'success' | 'declined' | 'pending';
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  payoutMethod: string | null;
  merchant: string | null;
  /** A purchase's merchant category (docs/rules.md#card-controls); absent: null, as on every other movement. */
  category?: string | null;
  combineId: string | null;
  createdAt: Date;
  simulated: boolean;
  testSource: string;
  environment: string;
};

export type JournalInput = {
  kind: 'combine_completion' | 'cashout' | 'purchase' | 'transfer' | 'rebate_payout' | 'subscription' | 'test';
  userId: string | null;
  referenceId: string | null;
  memo?: string;
  entries: Posting[];
  /** Transaction rows this journal records, inserted by the same statement with its journal_id. */
  transactions?: JournalTransaction[];
};

export class UnbalancedJournalError extends Error {}

export function assertBalanced(entries: Posting[]): void {
  if (entries.length < 2) throw new UnbalancedJournalError('a journal needs at least two entries');
  let sum = 0;
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amountCents)) throw new UnbalancedJournalError(`non-integer amount ${entry.amountCents} for ${entry.accountCode}`);
    if (entry.amountCents === 0) throw new UnbalancedJournalError(`zero amount for ${entry.accountCode}`);
    sum += entry.amountCents;
  }
  if (sum !== 0) throw new UnbalancedJournalError(`journal does not balance: sum is ${sum} cents`);
}

/** Drops zero entries and merges entries to the same account, so callers can list fees freely. */
export function compactEntries(entries: Posting[]): Posting[] {
  const byAccount = new Map<string, number>();
  for (const entry of entries) byAccount.set(entry.accountCode, (byAccount.get(entry.accountCode) ?? 0) + entry.amountCents);
  return [...byAccount].filter(([, amount]) => amount !== 0).map(([accountCode, amountCents]) => ({ accountCode, amountCents }));
}

// One fixed text for every journal, whatever its number of entries and transaction rows: the
// lists travel as arrays (unnest), so it is a named statement built once, and PostgreSQL parses
// and plans it once per connection (docs/history/performance-log.md, round 4).
//
// Planned once, it must stay right as ledger_accounts grows (a row per card): a plain join by
// code, planned while the table was small, kept a hash join over a sequential scan of the whole
// table, and with it the balance update too, so every money movement cost time in proportion to
// the number of cards ever issued (round 5). The accounts are looked up one code at a time
// (LATERAL ... LIMIT 1, which the planner does not flatten into a join), and the balances updated
// by `id = any(array(...))`: the unique indexes, however small the table was when planned.

/**
 * The journal's WITH clauses: new_journal (written only when `guard` holds), entry_lines (the
 * entries' codes and amounts), new_entries, card_balances (the cached balances of card accounts)
 * and new_transactions (the rows the user sees). Shared with ledger/rebate-journal.ts and the
 * money writers' statements (the cash-out's and the purchase's guard it with their debit). Its
 * placeholders are j…, e… and t….
 *
 * `newAccount` names a WITH clause of the same statement that inserts one ledger account (columns
 * id, code; see card-accounts.ts): a sibling clause cannot see that row in ledger_accounts, so
 * entries to it take its id from the clause, and its balance is the one it was inserted with.
 */
export function journalClauses(guard: SQL = sql`true`, newAccount?: SQL): SQL {
  const account = newAccount
    ? sql`(select id from ${newAccount} where code = line.code union all (select id from ledger_accounts where code = line.code limit 1) limit 1)`
    : sql`(select id from ledger_accounts where code = line.code limit 1)`;
  const notNew = newAccount ? sql`and la.id not in (select id from ${newAccount})` : sql``;
  return sql`
    new_journal as (
      insert into journals (kind, user_id, reference_id, memo)
      select ${sql.placeholder('jKind')}::text, ${sql.placeholder('jUserId')}::uuid, ${sql.placeholder('jReferenceId')}::uuid, ${sql.placeholder('jMemo')}::text
      where ${guard}
      returning id
    ),
    entry_lines as (select * from unnest(${sql.placeholder('eCodes')}::text[], ${sql.placeholder('eAmounts')}::bigint[]) as line(code, amount)),
    new_entries as (
      insert into journal_entries (journal_id, account_id, amount_cents)
      select journal.id, account.id, line.amount from new_journal journal, entry_lines line cross join lateral ${account} account
      returning account_id, amount_cents
    ),
    card_balances as (
      update ledger_accounts la set balance_cents = la.balance_cents + (select sum(entry.amount_cents) from new_entries entry where entry.account_id = la.id)
      where la.id = any(array(select account_id from new_entries)) and la.kind = 'card' ${notNew}
      returning la.id
    ),
    new_transactions as (
      insert into transactions (id, user_id, card_id, type, status, amount_cents, fee_cents, net_amount_cents, payout_method, merchant,
        category, combine_id, journal_id, created_at, simulated, test_source, environment)
      select r.id, r.user_id, r.card_id, r.type, r.status, r.amount_cents, r.fee_cents, r.net_amount_cents, r.payout_method, r.merchant,
        r.category, r.combine_id, journal.id, r.created_at, r.simulated, r.test_source, r.environment
      from new_journal journal, unnest(
        ${sql.placeholder('tIds')}::uuid[], ${sql.placeholder('tUserIds')}::uuid[], ${sql.placeholder('tCardIds')}::uuid[],
        ${sql.placeholder('tTypes')}::text[], ${sql.placeholder('tStatuses')}::text[], ${sql.placeholder('tAmounts')}::bigint[],
        ${sql.placeholder('tFees')}::bigint[], ${sql.placeholder('tNets')}::bigint[], ${sql.placeholder('tPayoutMethods')}::text[],
        ${sql.placeholder('tMerchants')}::text[], ${sql.placeholder('tCategories')}::text[], ${sql.placeholder('tCombineIds')}::uuid[],
        ${sql.placeholder('tCreatedAts')}::timestamptz[], ${sql.placeholder('tSimulated')}::boolean[], ${sql.placeholder('tTestSources')}::text[],
        ${sql.placeholder('tEnvironments')}::text[]
      ) as r(id, user_id, card_id, type, status, amount_cents, fee_cents, net_amount_cents, payout_method, merchant, category, combine_id, created_at,
        simulated, test_source, environment)
      returning id
    )`;
}

/** The columns that say what the journal's clauses wrote (checked by `journalIdFrom`). */
export const JOURNAL_RESULT = sql`(select id from new_journal) as journal_id, ${rowsWritten('new_entries')} as entry_count, ${rowsWritten('new_transactions')} as transaction_count`;

export type JournalResultRow = { journal_id: string | null; entry_count: number; transaction_count: number };

/** Asserts the invariants and gives the placeholders' values of `journalClauses` (named j…, e… and t…). */
export function journalValues(input: JournalInput): { values: Record<string, unknown>; entryCount: number; transactionCount: number } {
  const entries = compactEntries(input.entries);
  assertBalanced(entries);
  // The movement's transaction rows ride along (one round trip less per money request).
  const records = input.transactions ?? [];
  return {
    entryCount: entries.length,
    transactionCount: records.length,
    values: {
      jKind: input.kind,
      jUserId: input.userId,
      jReferenceId: input.referenceId,
      jMemo: input.memo ?? '',
      eCodes: entries.map((e) => e.accountCode),
      eAmounts: entries.map((e) => e.amountCents),
      tIds: records.map((r) => r.id),
      tUserIds: records.map((r) => r.userId),
      tCardIds: records.map((r) => r.cardId),
      tTypes: records.map((r) => r.type),
      tStatuses: records.map((r) => r.status),
      tAmounts: records.map((r) => r.amountCents),
      tFees: records.map((r) => r.feeCents),
      tNets: records.map((r) => r.netAmountCents),
      tPayoutMethods: records.map((r) => r.payoutMethod),
      tMerchants: records.map((r) => r.merchant),
      tCategories: records.map((r) => r.category ?? null),
      tCombineIds: records.map((r) => r.combineId),
      tCreatedAts: records.map((r) => r.createdAt.toISOString()),
      tSimulated: records.map((r) => r.simulated),
      tTestSources: records.map((r) => r.testSource),
      tEnvironments: records.map((r) => r.environment),
    },
  };
}

/** The journal's id, once every entry and transaction row is known to be written. */
export function journalIdFrom(row: JournalResultRow | undefined, expected: { entryCount: number; transactionCount: number }): string {
  if (!row?.journal_id || Number(row.entry_count) !== expected.entryCount) {
    // An unknown account code would silently drop an entry; refuse the whole transaction.
    throw new UnbalancedJournalError(`journal posted ${row?.entry_count ?? 0} of ${expected.entryCount} entries (unknown account?)`);
  }
  if (Number(row.transaction_count) !== expected.transactionCount) {
    throw new Error(`journal wrote ${row.transaction_count} of ${expected.transactionCount} transaction rows`);
  }
  return row.journal_id;
}

const postJournalStatement = namedSqlStatement('post_journal', () => sql`with ${journalClauses()} select ${JOURNAL_RESULT}`);

export async function postJournal(tx: Tx, input: JournalInput): Promise<string> {
  const { values, ...expected } = journalValues(input);
  const result = await postJournalStatement(tx, values);
  return journalIdFrom(rowsOf<JournalResultRow>(result)[0], expected);
}

/** The rows of a `db.execute` answer (node-postgres's `{rows}`), typed. */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: T[] }).rows;
  return Array.isArray(rows) ? rows : (result as T[]);
}
