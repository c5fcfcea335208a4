// Payout methods API (settings → Payout Methods). The toasts are the spec's rules (docs/rules.md#messages).
import { z } from 'zod';
import { PAYOUT_METHOD_LABELS } from '../core/plans';
import type { PayoutMethod } from '../core/plans';
import { cents } from './common';
import { payoutMethodId } from './me';

export const PAYOUT_METHOD_MESSAGES = {
  select: 'Please select a payout method',
  addFailed: 'Failed to add payout method',
  removeFailed: 'Failed to remove payout method',
  preferredFailed: 'Failed to update preferred payout method',
  detailsFailed: 'Failed to save the payout method details',
} as const;

export const payoutMethodAdded = (method: PayoutMethod) => `${PAYOUT_METHOD_LABELS[method]} added as a payout method`;
export const payoutMethodRemoved = (method: PayoutMethod) => `${PAYOUT_METHOD_LABELS[method]} removed as a payout method`;
export const payoutMethodPreferred = (method: PayoutMethod) => `${PAYOUT_METHOD_LABELS[method]} set as preferred payout method`;
export const payoutMethodAlreadyAdded = (method: PayoutMethod) => `${PAYOUT_METHOD_LABELS[method]} is already added as a payout method`;
/** Decision 172: the details of a method saved without them, entered. */
export const payoutMethodDetailsSaved = (method: PayoutMethod) => `${PAYOUT_METHOD_LABELS[method]} details saved`;
export const payoutMethodNotSaved = (method: PayoutMethod) => `${PAYOUT_METHOD_LABELS[method]} is not one of your payout methods.`;

export const payoutMethodRequest = z.object({
  method: z.enum(['ach', 'paypal', 'cashapp'], { error: PAYOUT_METHOD_MESSAGES.select }),
});
export type PayoutMethodRequest = z.infer<typeof payoutMethodRequest>;

/**
 * POST /api/payout-methods: the method and where the money goes (an account
 * number, a PayPal e-mail or a $cashtag; checked by core/payout-details.ts, only a masked form kept).
 * ACH takes its bank's routing number too (decision 171): required with an ACH `detail`, refused
 * (400) with any other method. Without either, the method is saved with no destination, as for
 * API clients older than payout details, and nothing can be paid to it until they are sent (decision 172:
 * sending them for a method saved without them enters them, 200).
 */
export const addPayoutMethodRequest = payoutMethodRequest.extend({
  detail: z.string().max(254).describe('Where the money goes: the bank account number (4 to 17 digits; only its last 4 are kept), the PayPal e-mail or the $cashtag').optional(),
  routingNumber: z.string().max(32).describe("ACH only: the bank's 9-digit ABA routing number (spaces and dashes ignored); required with an ACH detail, refused with another method").optional(),
});
export type AddPayoutMethodRequest = z.infer<typeof addPayoutMethodRequest>;

export const payoutMethodParams = z.object({
  method: z.enum(['ach', 'paypal', 'cashapp'], { error: 'Unknown payout method.' }),
});

export const savedPayoutMethod = z.object({
  method: payoutMethodId,
  label: z.string(),
  status: z.enum(['active', 'inactive']),
  lastUsed: z.string().nullable(),
  createdAt: z.string(),
  preferred: z.boolean(),
  /** False when the plan no longer allows it (after a cancelled subscription ended). */
  allowedByPlan: z.boolean(),
  /** "•••• 6789", an e-mail or a $cashtag; null for a method added before details were asked. */
  detail: z.string().nullable(),
  needsDetails: z
    .boolean()
    .describe(
      'True when no destination is registered with the payout provider for it (saved before decision 168, or without details): nothing is paid to it, cash-out or rebate, until its details are sent again with POST /api/payout-methods (decision 172)',
    ),
});
export type SavedPayoutMethod = z.infer<typeof savedPayoutMethod>;

export const payoutMethodsView = z.object({
  methods: z.array(savedPayoutMethod),
  preferredPayout: payoutMethodId.nullable(),
  /** What the user's plan allows adding (docs/rules.md#plans). */
  allowedMethods: z.array(payoutMethodId),
  /** BNPL rebates still waiting for a payout method. */
  pendingRebates: z.object({ count: z.number().int(), amountCents: cents }),
});
export type PayoutMethodsView = z.infer<typeof payoutMethodsView>;

export const payoutMethodChange = payoutMethodsView.extend({
  message: z.string(),
  /** Pending BNPL rebates this change paid out to the preferred method. */
  rebatesPaid: z.object({ count: z.number().int(), amountCents: cents }),
});
export type PayoutMethodChange = z.infer<typeof payoutMethodChange>;
