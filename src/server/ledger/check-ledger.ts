// The ledger's invariants, checked from the data alone (npm run ledger:check, and after every
// money test): every journal sums to zero and has entries, every card's cached balances equal
// its ledger sum, no card balance is negative, and every card's figures add up:
// original = spent + remaining (DECISIONS §4; a cash-out and a use as a source count as spent).
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

  const counts = rowsOf<{ journals: string; cards: string }>(
    await db.execute(sql`select (select count(*) from journals)::text as journals, (select count(*) from cards)::text as cards`),
  )[0];
  return { ok: problems.length === 0, journals: Number(counts?.journals ?? 0), cards: Number(counts?.cards ?? 0), problems };
}
