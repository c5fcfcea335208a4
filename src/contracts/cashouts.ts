// Cash-out API: POST /api/cashouts (Idempotency-Key required) and GET /api/cashouts.
// Money in cents. The messages are the spec's rules (docs/rules.md#messages) so the server's 400 and the form agree.
import { z } from 'zod';
import { CASHOUT_MESSAGES } from '../core/cashout';
import { CASHOUT_MIN_AMOUNT_CENTS } from '../core/fees';
import { MESSAGES } from '../core/money';
import { cents } from './common';
import { payoutMethodId } from './me';

export { CASHOUT_MESSAGES };

/** docs/rules.md#messages: what the screen says when a cash-out fails without a more precise message. */
export const CASHOUT_FAILED_MESSAGE = 'Failed to process cashout';
export const CASHOUT_SUCCESS_MESSAGE = 'Card cashed out successfully!';

export const createCashoutRequest = z.object({
  cardId: z.string({ error: CASHOUT_MESSAGES.selectCard }).uuid(CASHOUT_MESSAGES.selectCard),
  amountCents: z
    .number({ error: CASHOUT_MESSAGES.invalidAmount })
    // A fraction of a cent is an amount with more than 2 decimals, as the form says (docs/rules.md#amount-input).
    .int(MESSAGES.tooManyDecimals)
    .positive(CASHOUT_MESSAGES.invalidAmount)
    .min(CASHOUT_MIN_AMOUNT_CENTS, CASHOUT_MESSAGES.belowMinimum)
    .max(5_000_000, CASHOUT_MESSAGES.invalidAmount),
  payoutMethod: z.enum(['ach', 'paypal', 'cashapp'], { error: CASHOUT_MESSAGES.selectPayoutMethod }),
});
export type CreateCashoutRequest = z.input<typeof createCashoutRequest>;

// docs/rules.md#cashout-checks "Transaction (cashout)" and the demo cash-out result, camelCased.
export const cashout = z.object({
  id: z.string(),
  type: z.literal('cashout'),
  cardId: z.string(),
  cardLast4: z.string(),
  amountCents: cents,
  feeCents: cents,
  netAmountCents: cents,
  payoutMethod: payoutMethodId,
  status: z.enum(['success', 'pending', 'declined']),
  createdAt: z.string(),
  simulated: z.boolean(),
  testSource: z.string(),
  environment: z.string(),
});
export type Cashout = z.infer<typeof cashout>;

export const createCashoutResponse = z.object({
  success: z.literal(true),
  cashout,
  /** The rate applied (plan rate, halved while the promo runs), for the receipt. */
  feeRatePpm: z.number().int(),
  /** The card after the cash-out: at zero it is cashed_out. */
  card: z.object({ id: z.string(), status: z.string(), remainingAmountCents: cents, amountSpentCents: cents }),
  /** The payout provider's reference (demo: made up). */
  payoutId: z.string(),
});
export type CreateCashoutResponse = z.infer<typeof createCashoutResponse>;

export const listCashoutsQuery = z.object({
  cardId: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const cashoutList = z.object({ cashouts: z.array(cashout) });
export type CashoutList = z.infer<typeof cashoutList>;
