// The payout-methods feature's public face: what other features may use.
export { pendingRebatesOf } from './pay-pending-rebates';
