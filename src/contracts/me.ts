import { z } from 'zod';
import { cents } from './common';

export const planId = z.enum(['free', 'premium', 'premium+']);
export const payoutMethodId = z.enum(['ach', 'paypal', 'cashapp']);

export const payoutMethodEntry = z.object({
  method: payoutMethodId,
  status: z.enum(['active', 'inactive']),
  lastUsed: z.string().nullable(),
  /** Where the money goes, as the user recognises it: "•••• 6789", an e-mail, a $cashtag; null when saved without details. */
  detail: z.string().nullable(),
  /** No destination registered with the payout provider: its details are asked again before anything is paid to it (decision 172). */
  needsDetails: z.boolean(),
});

// docs/rules.md#registration user profile, camelCased, money in cents, dates as ISO strings.
export const profile = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: z.string(),
  lastReset: z.string().nullable(),
  subscription: planId,
  billingCycle: z.enum(['monthly', 'yearly']).nullable(),
  subscriptionPriceCents: cents,
  subscriptionUpdated: z.string().nullable(),
  currentSubscriptionStart: z.string().nullable(),
  subscriptionPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  subscriptionLastCanceledAt: z.string().nullable(),
  loyaltyDiscountMonths: z.number().int(),
  boostsUsed: z.number().int(),
  boostsAvailable: z.number().int(),
  combineTotal: z.number().int(),
  promo50offFirstYear: z.boolean(),
  promoStart: z.string().nullable(),
  promoEnd: z.string().nullable(),
  promoActive: z.boolean(),
  preferredPayout: payoutMethodId.nullable(),
  payoutMethods: z.array(payoutMethodEntry),
  twoFactorEnabled: z.boolean(),
  lastUpdated: z.string(),
  simulated: z.boolean(),
  testSource: z.string(),
  environment: z.string(),
});
export type Profile = z.infer<typeof profile>;

/** GET /api/session: the start-up probe of the web app (200 signed in or out). */
export const sessionState = z.object({ signedIn: z.boolean(), profile: profile.nullable() });
export type SessionState = z.infer<typeof sessionState>;
