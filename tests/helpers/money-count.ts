// Counting money that left, not balances: the calls the demo outside systems
// received, read from their own append-only record (DEMO_ADAPTER_LOG, one JSON line per call,
// written by the adapter as it answers, kept across a crash), deduplicated by reference as the
// outside system deduplicates them, set against what the committed data says is owed.
import { existsSync, readFileSync } from 'node:fs';
import type { DemoCall } from '../../src/server/adapters/demo-calls';
import type { DemoOperation } from '../../src/server/lib/demo-faults';
import type { Db } from '../../src/server/db/client';
import { checkLedger } from '../../src/server/ledger/check-ledger';
import { queryRows } from './db-snapshot';

export function readCallFile(file: string): DemoCall[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as DemoCall);
}

/** Per reference, the calls of `op` that did the thing (done, or done with the answer lost); a duplicate did nothing new. */
export function effectiveByReference(calls: DemoCall[], op: DemoOperation): Map<string, DemoCall[]> {
  const byReference = new Map<string, DemoCall[]>();
  for (const call of calls) {
    if (call.op !== op || (call.outcome !== 'done' && call.outcome !== 'answer-lost')) continue;
    byReference.set(call.reference, [...(byReference.get(call.reference) ?? []), call]);
  }
  return byReference;
}

export type MoneyCount = {
  payouts: number;
  rebatePayouts: number;
  captures: number;
  voids: number;
  problems: string[];
};

/**
 * What the outside systems did, against what is owed:
 * - every cash-out transaction has exactly one payout (`cashout:<id>`) for its net amount, and no
 *   payout exists for anything else;
 * - every processed rebate with money in it has exactly one payout (`rebate:<id>`) for its amount;
 * - every hold of a completed combine is captured exactly once, for its source's charge, and never
 *   voided; every hold of a failed combine, and every hold in `voidedHolds` (drafts deleted or
 *   sources removed by the test), is voided exactly once and never captured; no other hold is
 *   captured or voided;
 * - `npm run ledger:check` holds; no money effect is left pending or dead.
 */
export async function countMoney(db: Db, callFile: string, options: { voidedHolds?: string[] } = {}): Promise<MoneyCount> {
  const problems: string[] = [];
  const calls = readCallFile(callFile);
  const payouts = effectiveByReference(calls, 'payouts.send');
  const captures = effectiveByReference(calls, 'processor.capture');
  const voids = effectiveByReference(calls, 'processor.release');

  const once = (what: string, found: DemoCall[] | undefined, amountCents?: number) => {
    if (found?.length !== 1) problems.push(`${what}: ${found?.length ?? 0} effective calls, expected 1`);
    else if (amountCents !== undefined && found[0]!.amountCents !== amountCents) problems.push(`${what}: ${found[0]!.amountCents} cents, expected ${amountCents}`);
  };

  const owedPayouts = new Set<string>();
  const cashouts = await queryRows<{ id: string; net: number }>(db, "select id, net_amount_cents::int as net from transactions where type = 'cashout'");
  for (const { id, net } of cashouts) {
    owedPayouts.add(`cashout:${id}`);
    once(`payout of cash-out ${id}`, payouts.get(`cashout:${id}`), net);
  }
  const rebates = await queryRows<{ id: string; amount: number }>(db, "select id, rebate_amount_cents::int as amount from rebates where status = 'processed' and rebate_amount_cents > 0");
  for (const { id, amount } of rebates) {
    owedPayouts.add(`rebate:${id}`);
    once(`payout of rebate ${id}`, payouts.get(`rebate:${id}`), amount);
  }
  for (const reference of payouts.keys()) if (!owedPayouts.has(reference)) problems.push(`payout ${reference} was sent, but nothing committed owes it`);

  const holds = await queryRows<{ hold: string; status: string }>(
    db,
    `select h.hold, c.status
       from combine_sources s join combines c on c.id = s.combine_id
       cross join lateral (values (s.authorization_id), (s.bnpl_transaction_id)) as h(hold)
      where h.hold is not null`,
  );
  const toCapture = new Set<string>();
  const toVoid = new Set(options.voidedHolds ?? []);
  for (const { hold, status } of holds) {
    if (status === 'completed') toCapture.add(hold);
    if (status === 'failed') toVoid.add(hold);
  }
  for (const hold of toCapture) {
    once(`capture of hold ${hold}`, captures.get(`capture:${hold}`));
    if (voids.has(`void:${hold}`)) problems.push(`hold ${hold} of a completed combine was voided`);
  }
  for (const hold of toVoid) {
    once(`void of hold ${hold}`, voids.get(`void:${hold}`));
    if (captures.has(`capture:${hold}`)) problems.push(`hold ${hold} of a failed or deleted combine was captured`);
  }
  for (const reference of captures.keys()) if (!toCapture.has(reference.slice('capture:'.length))) problems.push(`${reference}: captured, but no completed combine holds it`);
  for (const reference of voids.keys()) if (!toVoid.has(reference.slice('void:'.length))) problems.push(`${reference}: voided, but no failed or deleted combine held it`);

  const unsettled = await queryRows<{ reference: string; status: string; last_error: string | null }>(db, "select reference, status, last_error from money_effects where status <> 'done'");
  for (const row of unsettled) problems.push(`money effect ${row.reference} is ${row.status} (${row.last_error ?? 'no error'})`);
  problems.push(...(await checkLedger(db)).problems);
  return { payouts: payouts.size, rebatePayouts: rebates.length, captures: captures.size, voids: voids.size, problems };
}

/** Waits until every money effect is done (the worker drained), or the time is up. */
export async function waitForDrain(db: Db, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await queryRows<{ open: number; total: number }>(db, "select count(*) filter (where status <> 'done')::int as open, count(*)::int as total from money_effects");
    if (row?.open === 0) return;
    if (Date.now() > deadline) {
      const left = await queryRows<{ reference: string; status: string; attempts: number; last_error: string | null }>(db, "select reference, status, attempts, last_error from money_effects where status <> 'done'");
      throw new Error(`money effects not drained after ${timeoutMs} ms: ${JSON.stringify(left)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
