// Ledger account codes. System accounts are seeded by migration 0001; each card gets its own
// account (`card:<card id>`) created in the transaction that issues the card.
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
