// What a money plan is made of (docs/rules.md#deciding-vs-doing: deciding is separate from doing). The planners
// (plan-cashout.ts, plan-purchase.ts, plan-completion.ts, plan-rebate-payouts.ts,
// plan-subscription-payment.ts) take the facts the server loaded and
// return either a refusal, with the spec's message, or a plan: the card debits, the journal lines,
// the records and the outside effects the server then carries out (one transaction, then the
// outbox). Nothing here reads or writes anything.

/** System ledger accounts by name; the server maps each to its code (ledger/accounts.ts). */
export type SystemAccount =
  | 'fundingSources'
  | 'productFeeRevenue'
  | 'creationFeeRevenue'
  | 'cashoutFeeRevenue'
  | 'processorFees'
  | 'bnplProviderFees'
  | 'rebatesPayable'
  | 'payouts'
  | 'merchants'
  | 'subscriptionRevenue';

export type LedgerAccountRef = { card: string } | { system: SystemAccount };

/** One line of a journal: positive adds to the account, negative takes from it. */
export type JournalLine = { account: LedgerAccountRef; amountCents: number };

/** The codes a planner refuses with: each is one of the API's error codes (contracts/errors.ts). */
export type RefusalCode =
  | 'validation_error'
  | 'not_found'
  | 'limit_reached'
  | 'payout_method_not_allowed'
  | 'payout_method_not_saved'
  | 'payout_method_needs_details'
  | 'quote_changed'
  | 'underfunded'
  | 'already_completed'
  | 'not_a_draft'
  | 'draft_expired'
  | 'boost_unavailable'
  | 'source_unavailable'
  | 'no_balance'
  | 'card_frozen'
  | 'card_not_cashable'
  | 'account_has_balance'
  | 'balance_below_cashout'
  | 'rebates_pending'
  | 'not_available';

export type Refusal = { ok: false; status: 400 | 403 | 404 | 409; code: RefusalCode; message: string };

export function refuse(status: Refusal['status'], code: RefusalCode, message: string): Refusal {
  return { ok: false, status, code, message };
}

/** A card as the planners need to know it. */
export type CardFacts = {
  id: string;
  status: string;
  frozen: boolean;
  validUntil: Date;
  remainingAmountCents: number;
  last4: string;
};

/**
 * A conditional debit: the server takes `amountCents` off the card only if, when it runs, the card
 * is in one of `allowedStatuses`, unfrozen, valid at `validAt` (null: expiry does not matter) and
 * holds enough. Under concurrency that condition, not the facts the plan was made from, decides.
 */
export type CardDebit = {
  cardId: string;
  amountCents: number;
  statusAtZero: 'cashed_out' | 'closed' | null;
  allowedStatuses: ReadonlyArray<'active' | 'expired'>;
  validAt: Date | null;
};

export function journalSumCents(lines: readonly JournalLine[]): number {
  return lines.reduce((sum, line) => sum + line.amountCents, 0);
}

/** TIGER_STYLE: a plan's journal balances and has no empty or fractional line, or it is a bug. */
export function assertJournalBalanced(lines: readonly JournalLine[]): void {
  if (lines.length < 2) throw new Error('a journal needs at least two lines');
  for (const line of lines) {
    if (!Number.isSafeInteger(line.amountCents) || line.amountCents === 0) throw new Error(`bad journal line of ${line.amountCents} cents`);
  }
  const sum = journalSumCents(lines);
  if (sum !== 0) throw new Error(`journal does not balance: sum is ${sum} cents`);
}

/** Merges lines to one account and drops zero lines, so a planner can list every fee freely. */
export function compactLines(lines: readonly JournalLine[]): JournalLine[] {
  const byKey = new Map<string, JournalLine>();
  for (const line of lines) {
    const key = 'card' in line.account ? `card:${line.account.card}` : `system:${line.account.system}`;
    const known = byKey.get(key);
    byKey.set(key, { account: line.account, amountCents: (known?.amountCents ?? 0) + line.amountCents });
  }
  return [...byKey.values()].filter((line) => line.amountCents !== 0);
}

/** Whether a card can still pay at `now`: unexpired by date, whatever the expiry job has marked yet. */
export function isCardValidAt(card: Pick<CardFacts, 'validUntil'>, now: Date): boolean {
  return now.getTime() < card.validUntil.getTime();
}
