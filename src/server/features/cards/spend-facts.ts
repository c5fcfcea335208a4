// What a card's spend controls are decided on (docs/rules.md#card-controls): the controls the owner
// set and the card's approved purchases, in one statement. A purchase reads them after locking the
// card, so two purchases of one card see each other's spending; the controls' editor takes the
// same lock (card-controls.ts), so a purchase sees the controls as they were or as they became.
import { sql } from 'drizzle-orm';
import { DEFAULT_CONTROLS, type SpendControls, type SpendHistory } from '../../../core/spend-controls';
import type { DbOrTx } from '../../db/client';
import { namedSqlStatement } from '../../db/named-statement';
import { rowsOf } from '../../ledger/post-journal';

const p = (name: string) => sql.placeholder(name);
// A card without controls (most) has no limit to count against: its purchases are not read at all.
const APPROVED_PURCHASES = sql`card_id = ${p('cardId')}::uuid and type = 'purchase' and status = 'success'
  and exists (select 1 from card_spend_controls where card_id = ${p('cardId')}::uuid)`;

// Only purchases count (core/spend-controls.ts, SpendHistory): a cash-out or use as a source is the
// owner moving their own money. The windows end at `at` (the database's clock, which dated every
// purchase; its now() when not given); purchases older than the longest window (365 days of 24
// hours: core/spend-windows.ts) only count in the lifetime sum.
const spendFactsStatement = namedSqlStatement(
  'card_spend_facts',
  () => sql`
    with at as (select coalesce(${p('at')}::timestamptz, now()) as now)
    select
      (select now from at) as database_now,
      (select controls from card_spend_controls where card_id = ${p('cardId')}::uuid) as controls,
      (select coalesce(sum(amount_cents), 0)::text from transactions where ${APPROVED_PURCHASES}) as lifetime_cents,
      coalesce((select json_agg(json_build_array(amount_cents, created_at)) from transactions
        where ${APPROVED_PURCHASES} and created_at > (select now from at) - interval '8760 hours'), '[]'::json) as recent`,
);

export type SpendFacts = { controls: SpendControls; history: SpendHistory };

type SpendFactsRow = { database_now: Date | string; controls: SpendControls | null; lifetime_cents: string; recent: [number | string, string][] };

/** The card's controls (none set: DEFAULT_CONTROLS), its purchases that count at `at`, and `at` (the database's now() when null). */
export async function readSpendFacts(db: DbOrTx, cardId: string, at: Date | null): Promise<SpendFacts & { databaseNow: Date }> {
  const [row] = rowsOf<SpendFactsRow>(await spendFactsStatement(db, { cardId, at: at?.toISOString() ?? null }));
  if (!row) throw new Error('readSpendFacts: the statement returned no row');
  const purchases = row.recent.map(([amountCents, when]) => ({ amountCents: Number(amountCents), at: new Date(when) }));
  return { controls: row.controls ?? DEFAULT_CONTROLS, history: { purchases, lifetimeSpentCents: Number(row.lifetime_cents) }, databaseNow: new Date(row.database_now) };
}
