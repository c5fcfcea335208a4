// A card's spend controls (docs/rules.md#card-controls): GET and PUT /api/cards/:id/controls.
// The body is loose on purpose: limits are any number and categories any text here, so that the
// server's one validator (core/spend-controls-validation.ts) answers with the words a person reads,
// field by field, rather than the schema's.
import { z } from 'zod';
import { SPEND_CATEGORY_IDS, type SpendCategory } from '../core/spend-controls';
import { cents } from './common';

/** The merchant category groups of docs/rules.md#card-controls. */
export const spendCategory = z.enum(SPEND_CATEGORY_IDS as [SpendCategory, ...SpendCategory[]]);

export const MAX_LISTED_CATEGORIES = 20;

const limitInput = z.number().nullable().optional();

export const merchantLock = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('off') }),
  /** Locked to the merchant of the next approved purchase. */
  z.object({ mode: z.literal('first') }),
  z.object({ mode: z.literal('named'), merchant: z.string().max(200) }),
]);

/** Absent or null limits are unset; no categories listed is any category. Block or allow only, never both. */
export const cardControlsRequest = z.object({
  perTransactionCents: limitInput,
  perDayCents: limitInput,
  per30DaysCents: limitInput,
  perYearCents: limitInput,
  lifetimeCents: limitInput,
  merchantLock: merchantLock.optional(),
  blockCategories: z.array(z.string().max(40)).max(MAX_LISTED_CATEGORIES).optional(),
  allowOnlyCategories: z.array(z.string().max(40)).max(MAX_LISTED_CATEGORIES).optional(),
});
export type CardControlsRequest = z.infer<typeof cardControlsRequest>;

const limit = cents.nullable();

export const cardControls = z.object({
  perTransactionCents: limit,
  perDayCents: limit,
  per30DaysCents: limit,
  perYearCents: limit,
  lifetimeCents: limit,
  merchantLock,
  blockCategories: z.array(spendCategory),
  allowOnlyCategories: z.array(spendCategory),
});
export type CardControls = z.infer<typeof cardControls>;

/** What each configured window leaves now (null: no limit there), and the most one purchase may be now. */
export const availableSpend = z.object({
  perTransactionCents: limit,
  perDayCents: limit,
  per30DaysCents: limit,
  perYearCents: limit,
  lifetimeCents: limit,
  largestPurchaseCents: limit,
});

export const cardControlsResponse = z.object({
  cardId: z.string(),
  controls: cardControls,
  available: availableSpend,
  /** "$42.10 left today, $310.00 left this 30 days"; null when no limit is set. */
  availableText: z.string().nullable(),
});
export type CardControlsResponse = z.infer<typeof cardControlsResponse>;
