import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { systemPromos } from '../../db/schema';
import type { PromoStatus } from '../../../contracts/system';

export const PROMO_COUNTER_ID = 'promo_counters_main';

export async function readPromoStatus(db: DbOrTx): Promise<PromoStatus> {
  const [row] = await db.select().from(systemPromos).where(eq(systemPromos.id, PROMO_COUNTER_ID)).prepare('promo_status').execute();
  if (!row) throw new Error('promo counter row missing: migrations not applied?');
  const claimedCount = row.first100PromoClaimed;
  return { limitCount: row.limitCount, claimedCount, remainingCount: Math.max(0, row.limitCount - claimedCount) };
}
