// The scheduled card-validity job (docs/rules.md#card-expiry; docs/decisions/007-expired-card-cashout.md).
// General cards past their 12 months become `expired`: no more spending, but a balance left on
// them can still be cashed out (and freezing still protects it). Single-use cards past their 30 days do the same when money is
// left on them (docs/rules.md#card-types: they "expire"), and are `closed` when empty; an empty single-use card
// that is still active (e.g. its whole balance funded another combine) is closed too.
// One statement, idempotent: safe to run on every instance at once.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { changed } from '../../lib/transaction';
import { rowsOf } from '../../ledger/post-journal';

export const EXPIRE_CARDS_INTERVAL_MS = 5 * 60 * 1000;

export async function expireCards(db: DbOrTx, now: Date): Promise<{ expired: number; closed: number }> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    update cards set
      status = case when type = 'single-use' and remaining_amount_cents = 0 then 'closed' else 'expired' end,
      closed_at = case when type = 'single-use' and remaining_amount_cents = 0 then ${at}::timestamptz else closed_at end
    where status = 'active'
      and (valid_until <= ${at}::timestamptz or (type = 'single-use' and remaining_amount_cents = 0))
    returning status, user_id
  `);
  const rows = rowsOf<{ status: string; user_id: string }>(result);
  for (const userId of new Set(rows.map((r) => r.user_id))) changed(db, { kind: 'cards-of', userId });
  return { expired: rows.filter((r) => r.status === 'expired').length, closed: rows.filter((r) => r.status === 'closed').length };
}
