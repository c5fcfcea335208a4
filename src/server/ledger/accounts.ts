// Ledger account codes. System accounts are seeded by migration 0001; each card gets its own
// account (`card:<card id>`) created in the transaction that issues the card.
import type { JournalLine, LedgerAccountRef } from '../../core/money-plan';

export const SYSTEM_ACCOUNTS = {
  fundingSources: 'system:funding_sources',
  productFeeRevenue: 'system:product_fee_revenue',
  creationFeeRevenue: 'system:creation_fee_revenue',
  cashoutFeeRevenue: 'system:cashout_fee_revenue',
  processorFees: 'system:processor_fees',
  bnplProviderFees: 'system:bnpl_provider_fees',
  rebatesPayable: 'system:rebates_payable',
  payouts: 'system:payouts',
  merchants: 'system:merchants',
  subscriptionRevenue: 'system:subscription_revenue',
} as const;

export type AccountCode = string;

export function cardAccountCode(cardId: string): AccountCode {
  return `card:${cardId}`;
}

/** A core plan's account (core/money-plan.ts) as its ledger code. */
export function accountCodeOf(account: LedgerAccountRef): AccountCode {
  return 'card' in account ? cardAccountCode(account.card) : SYSTEM_ACCOUNTS[account.system];
}

/** A core plan's journal lines as postings. */
export function postingsOf(lines: readonly JournalLine[]): Array<{ accountCode: AccountCode; amountCents: number }> {
  return lines.map((line) => ({ accountCode: accountCodeOf(line.account), amountCents: line.amountCents }));
}
