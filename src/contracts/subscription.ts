// Plans, upgrade and subscription API: GET /api/plans, GET /api/subscription,
// POST /api/subscription/upgrade, POST /api/subscription/cancel. The payment card of an upgrade
// is validated here (docs/rules.md#messages) and never stored: only its brand and last 4 digits are kept.
import { z } from 'zod';
import { PLAN_NOT_AVAILABLE_MESSAGE } from '../core/plan-subscription-payment';
import { cents } from './common';
import { payoutMethodId, planId } from './me';

export const SUBSCRIPTION_MESSAGES = {
  notAvailable: PLAN_NOT_AVAILABLE_MESSAGE,
  upgradeFailed: 'Failed to upgrade account',
  liveMode: 'Live payment processing not implemented in MVP',
  nothingToCancel: 'You are on the Free plan: there is no subscription to cancel.',
  cancelled: 'Your subscription has been cancelled. You keep your plan until the end of the paid period.',
  cancelFailed: 'Failed to cancel subscription',
  upgraded: (planName: string) => `Your account has been upgraded to ${planName}!`,
} as const;

export const PAYMENT_CARD_MESSAGES = {
  nameRequired: 'Name on card is required',
  numberRequired: 'Card number is required',
  numberDigits: 'Card number can only contain digits',
  numberTooLong: 'Card number can have at most 19 characters',
  numberTooShort: 'Please enter a valid card number',
  monthRequired: 'Expiry month is required',
  monthInvalid: 'Enter the expiry month as MM (01 to 12)',
  yearRequired: 'Expiry year is required',
  yearRange: (first: number, last: number) => `Choose an expiry year from ${first} to ${last}`,
  expired: 'This card has expired',
  cvvRequired: 'CVV is required',
  cvvDigits: 'CVV must be up to 4 digits',
  cvvTooShort: 'Please enter a valid CVV',
  zipDigits: 'ZIP code must be up to 5 digits',
  zipRequired: 'ZIP code is required',
} as const;

/** docs/rules.md#source-validation: the expiry-year select offers this year and the next 10. */
export const PAYMENT_CARD_YEARS_AHEAD = 10;
/** docs/rules.md#messages: the number field groups digits in fours and takes at most 19 characters. */
export const PAYMENT_CARD_NUMBER_MAX_CHARS = 19;

export function paymentCardYears(now: Date): number[] {
  const first = now.getUTCFullYear();
  return Array.from({ length: PAYMENT_CARD_YEARS_AHEAD + 1 }, (_, i) => first + i);
}

/**
 * Checks of a payment card that depend on the date or the mode (the shape is checked by the
 * schemas below). Demo mode requires only the first five fields (docs/rules.md#messages); live mode also wants
 * a number of at least 15 digits, a CVV of at least 3 and a ZIP code.
 */
export function paymentCardProblems(
  card: { number: string; expMonth: number; expYear: number; cvv: string; zip?: string | undefined },
  options: { now: Date; demoMode: boolean },
): Array<{ field: 'number' | 'expMonth' | 'expYear' | 'cvv' | 'zip'; message: string }> {
  const problems: Array<{ field: 'number' | 'expMonth' | 'expYear' | 'cvv' | 'zip'; message: string }> = [];
  const years = paymentCardYears(options.now);
  const first = years[0]!;
  const last = years[years.length - 1]!;
  if (card.expYear < first || card.expYear > last) {
    problems.push({ field: 'expYear', message: PAYMENT_CARD_MESSAGES.yearRange(first, last) });
  } else if (card.expYear === first && card.expMonth < options.now.getUTCMonth() + 1) {
    problems.push({ field: 'expMonth', message: PAYMENT_CARD_MESSAGES.expired });
  }
  if (!options.demoMode) {
    if (card.number.replace(/\s/g, '').length < 15) problems.push({ field: 'number', message: PAYMENT_CARD_MESSAGES.numberTooShort });
    if (card.cvv.length < 3) problems.push({ field: 'cvv', message: PAYMENT_CARD_MESSAGES.cvvTooShort });
    if (!card.zip) problems.push({ field: 'zip', message: PAYMENT_CARD_MESSAGES.zipRequired });
  }
  return problems;
}

const cardName = z.string({ error: PAYMENT_CARD_MESSAGES.nameRequired }).trim().min(1, PAYMENT_CARD_MESSAGES.nameRequired).max(100);
const cardNumber = z
  .string({ error: PAYMENT_CARD_MESSAGES.numberRequired })
  .trim()
  .min(1, PAYMENT_CARD_MESSAGES.numberRequired)
  .max(PAYMENT_CARD_NUMBER_MAX_CHARS, PAYMENT_CARD_MESSAGES.numberTooLong)
  .regex(/^[\d ]+$/, PAYMENT_CARD_MESSAGES.numberDigits)
  .refine((value) => /\d/.test(value), PAYMENT_CARD_MESSAGES.numberDigits);
const cardCvv = z
  .string({ error: PAYMENT_CARD_MESSAGES.cvvRequired })
  .min(1, PAYMENT_CARD_MESSAGES.cvvRequired)
  .regex(/^\d{1,4}$/, PAYMENT_CARD_MESSAGES.cvvDigits);
const cardZip = z.string().regex(/^\d{0,5}$/, PAYMENT_CARD_MESSAGES.zipDigits);

export const billingCycle = z.enum(['monthly', 'yearly']);

export const upgradeRequest = z.object({
  plan: planId,
  billingCycle,
  card: z.object({
    name: cardName,
    number: cardNumber,
    expMonth: z.number({ error: PAYMENT_CARD_MESSAGES.monthRequired }).int(PAYMENT_CARD_MESSAGES.monthInvalid).min(1, PAYMENT_CARD_MESSAGES.monthInvalid).max(12, PAYMENT_CARD_MESSAGES.monthInvalid),
    expYear: z.number({ error: PAYMENT_CARD_MESSAGES.yearRequired }).int(PAYMENT_CARD_MESSAGES.yearRequired),
    cvv: cardCvv,
    zip: cardZip.optional(),
  }),
});
export type UpgradeRequest = z.infer<typeof upgradeRequest>;

/** The payment modal's fields as typed (strings), with the same rules as the API. */
export function upgradePaymentFormSchema(options: { now: Date; demoMode: boolean }) {
  return z
    .object({
      name: cardName,
      number: cardNumber,
      expMonth: z.string().min(1, PAYMENT_CARD_MESSAGES.monthRequired).regex(/^(0[1-9]|1[0-2])$/, PAYMENT_CARD_MESSAGES.monthInvalid),
      expYear: z.string().min(1, PAYMENT_CARD_MESSAGES.yearRequired).regex(/^\d{4}$/, PAYMENT_CARD_MESSAGES.yearRequired),
      cvv: cardCvv,
      zip: cardZip,
    })
    .superRefine((form, ctx) => {
      if (!/^\d{2}$/.test(form.expMonth) || !/^\d{4}$/.test(form.expYear)) return;
      const problems = paymentCardProblems(
        { number: form.number, expMonth: Number(form.expMonth), expYear: Number(form.expYear), cvv: form.cvv, zip: form.zip || undefined },
        options,
      );
      for (const problem of problems) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    });
}
export type UpgradePaymentForm = z.input<ReturnType<typeof upgradePaymentFormSchema>>;

// ---- Views ----------------------------------------------------------------------------------

export const subscriptionPayment = z.object({
  id: z.string(),
  plan: planId,
  billingCycle,
  listPriceCents: cents,
  discountPpm: z.number().int(),
  amountCents: cents,
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  createdAt: z.string(),
});

export const subscriptionView = z.object({
  plan: planId,
  billingCycle: billingCycle.nullable(),
  /** The plan's list price for the cycle (0 on Free). */
  priceCents: cents,
  /** Consecutive paid months (docs/rules.md#plans); the discount of month n is 10% × (n − 1), at most 50%. */
  loyaltyMonths: z.number().int(),
  /** The discount of the month being paid for now. */
  loyaltyDiscountPpm: z.number().int(),
  /** The discount the next payment gets. */
  nextLoyaltyDiscountPpm: z.number().int(),
  /** What the next renewal costs; null on Free or after cancelling. */
  nextPaymentCents: cents.nullable(),
  currentSubscriptionStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  /** Null on Free or when the plan ends at the period end. */
  nextBillingDate: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  lastCanceledAt: z.string().nullable(),
  lastPayment: subscriptionPayment.nullable(),
});
export type SubscriptionView = z.infer<typeof subscriptionView>;

export const planView = z.object({
  id: planId,
  label: z.string(),
  name: z.string(),
  priceMonthlyCents: cents,
  priceYearlyCents: cents,
  /** What paying yearly saves against 12 monthly payments, in ppm. */
  yearlySavingPpm: z.number().int(),
  /** Null: unlimited. */
  monthlyCombineLimit: z.number().int().nullable(),
  productFeePpm: z.number().int(),
  cashoutFeePpm: z.number().int(),
  payoutMethods: z.array(payoutMethodId),
  emailSupport: z.boolean(),
  showsAds: z.boolean(),
  features: z.array(z.string()),
  current: z.boolean(),
  /** False on the current plan and on downgrades ('Not Available'). */
  upgradable: z.boolean(),
  /** The first payment for this plan after the user's loyalty discount, per cycle. */
  firstPaymentCents: z.object({ monthly: cents, yearly: cents }),
});
export type PlanView = z.infer<typeof planView>;

export const plansResponse = z.object({
  plans: z.array(planView),
  subscription: subscriptionView,
  promoActive: z.boolean(),
  loyalty: z.object({
    months: z.number().int(),
    currentDiscountPpm: z.number().int(),
    nextDiscountPpm: z.number().int(),
    stepPpm: z.number().int(),
    maxPpm: z.number().int(),
  }),
});
export type PlansResponse = z.infer<typeof plansResponse>;

export const upgradeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionView,
  payment: subscriptionPayment,
  nextBillingDate: z.string(),
});
export type UpgradeResponse = z.infer<typeof upgradeResponse>;

export const cancelResponse = z.object({
  message: z.string(),
  subscription: subscriptionView,
});
export type CancelResponse = z.infer<typeof cancelResponse>;
