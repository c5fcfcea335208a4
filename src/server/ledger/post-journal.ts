// Posting a journal: one SQL statement that writes the journal, its entries, and the cached
// balances of card accounts, inside the caller's transaction. The invariants are asserted here
// before writing and enforced again by the database (deferred balance trigger, CHECKs).
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import type { AccountCode } from './accounts';

export type Posting = { accountCode: AccountCode; amountCents: number };

export type JournalInput = {
  kind: 'combine_completion' | 'cashout' | 'purchase' | 'transfer' | 'rebate_payout' | 'subscription' | 'test';
  userId: string | null;
  referenceId: string | null;
  memo?: string;
  entries: Posting[];
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

export async function postJournal(tx: Tx, input: JournalInput): Promise<string> {
  const entries = compactEntries(input.entries);
  assertBalanced(entries);
  const values = sql.join(
    entries.map((e) => sql`(${e.accountCode}::text, ${e.amountCents}::bigint)`),
    sql`, `,
  );
  const result = await tx.execute(sql`
    with j as (
      insert into journals (kind, user_id, reference_id, memo)
      values (${input.kind}, ${input.userId}, ${input.referenceId}, ${input.memo ?? ''})
      returning id
    ),
    v(code, amount) as (values ${values}),
    e as (
      insert into journal_entries (journal_id, account_id, amount_cents)
      select j.id, a.id, v.amount from j, v join ledger_accounts a on a.code = v.code
      returning account_id, amount_cents
    ),
    b as (
      update ledger_accounts la set balance_cents = la.balance_cents + s.amount
      from (select account_id, sum(amount_cents) as amount from e group by account_id) s
      where la.id = s.account_id and la.kind = 'card'
      returning la.id
    )
    select (select id from j) as journal_id, (select count(*) from e) as entry_count, (select count(*) from b) as card_updates
  `);
  const row = rowsOf<{ journal_id: string; entry_count: string | number }>(result)[0];
  if (!row || Number(row.entry_count) !== entries.length) {
    // An unknown account code would silently drop an entry; refuse the whole transaction.
    throw new UnbalancedJournalError(`journal posted ${row?.entry_count ?? 0} of ${entries.length} entries (unknown account?)`);
  }
  return row.journal_id;
}

/** node-postgres answers `{rows}`, PGlite answers `{rows}` too, but typed differently: one accessor. */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: T[] }).rows;
  return Array.isArray(rows) ? rows : (result as T[]);
}
