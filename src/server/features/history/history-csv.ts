// GET /api/history.csv: the completed combines the /history filter shows, as a spreadsheet.
// Same filter as the history list (completed only, created within the range); amounts are plain
// decimals ("1234.50") so a spreadsheet reads them as numbers.
import { and, asc, desc, eq, gte, inArray } from 'drizzle-orm';
import { rangeStart } from '../../../core/dates';
import { CREATION_FEE_CENTS, PROVIDER_LABELS, SOURCE_TYPE_LABELS } from '../../../core/fees';
import { centsToInputString } from '../../../core/money';
import type { Db } from '../../db/client';
import { cards, combineSources, combines } from '../../db/schema';

export const MAX_CSV_ROWS = 5_000;
export type HistoryRange = 'all' | '7d' | '1m';

export const HISTORY_CSV_HEADER = [
  'Created (UTC)',
  'Completed (UTC)',
  'Combine ID',
  'Card Amount (USD)',
  'Sources',
  'Source Details',
  'Card',
  'Card Status',
  'Balance (USD)',
  'Fees (USD)',
  'Rebate (USD)',
  'Promo Applied',
] as const;

const STATUS_LABELS: Record<string, string> = { active: 'Active', cashed_out: 'Cashed Out', expired: 'Expired', closed: 'Closed' };

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A text field that
 * a spreadsheet would run as a formula (= + - @, tab, CR) is prefixed with an apostrophe
 * (OWASP CSV injection); numbers are written by us and pass through.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function sourceLabel(type: string, provider: string): string {
  if (type === 'internal') return 'PayWeave card';
  const providerLabel = PROVIDER_LABELS[provider as keyof typeof PROVIDER_LABELS] ?? provider;
  const typeLabel = SOURCE_TYPE_LABELS[type as keyof typeof SOURCE_TYPE_LABELS] ?? type;
  return `${providerLabel} ${typeLabel}`;
}

export async function historyCsv(deps: { db: Db; now(): Date }, userId: string, range: HistoryRange): Promise<string> {
  const conditions = [eq(combines.userId, userId), eq(combines.status, 'completed')];
  if (range !== 'all') conditions.push(gte(combines.createdAt, rangeStart(range, deps.now())));
  const rows = await deps.db
    .select({ combine: combines, card: cards })
    .from(combines)
    .leftJoin(cards, and(eq(cards.id, combines.cardId), eq(cards.userId, userId)))
    .where(and(...conditions))
    .orderBy(desc(combines.createdAt), desc(combines.id))
    .limit(MAX_CSV_ROWS);
  const ids = rows.map((r) => r.combine.id);
  const sources = ids.length
    ? await deps.db.select().from(combineSources).where(inArray(combineSources.combineId, ids)).orderBy(asc(combineSources.combineId), asc(combineSources.position))
    : [];
  const byCombine = new Map<string, typeof sources>();
  for (const source of sources) byCombine.set(source.combineId, [...(byCombine.get(source.combineId) ?? []), source]);

  const money = (cents: number) => centsToInputString(cents);
  const lines = [HISTORY_CSV_HEADER.map(csvField).join(',')];
  for (const { combine, card } of rows) {
    const own = byCombine.get(combine.id) ?? [];
    // Every fee the combine cost: a source that pays the creation fee carries it; by default the
    // new card pays it (its amount is the sources' nets less the fee), and it is a fee all the same.
    const creationFeeOnCardCents = combine.creationFeeSourceIdx === -1 ? CREATION_FEE_CENTS : 0;
    const feesCents = own.reduce((total, s) => total + s.processorFeeCents + s.productFeeCents + s.bnplFeeActualCents + s.creationFeeCents, creationFeeOnCardCents);
    const rebateCents = own.reduce((total, s) => total + s.rebateCents, 0);
    // What each source was charged, with the creation fee on top when it paid it (as the review said).
    const details = own.map((s) => `${sourceLabel(s.type, s.provider)} ${money(s.chargeCents + s.creationFeeCents)}`).join('; ');
    lines.push(
      [
        csvField(combine.createdAt.toISOString()),
        csvField(combine.completedAt ? combine.completedAt.toISOString() : ''),
        csvField(combine.id),
        money(card?.originalAmountCents ?? combine.totalAmountCents),
        own.length,
        csvField(details),
        csvField(card ? `ending ${card.last4}` : ''),
        csvField(card ? `${STATUS_LABELS[card.status] ?? card.status}${card.frozen ? ' (Frozen)' : ''}` : ''),
        card ? money(card.remainingAmountCents) : '',
        money(feesCents),
        money(rebateCents),
        combine.promoApplied || combine.promoDiscount ? 'Yes' : 'No',
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
