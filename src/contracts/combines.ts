// Combine wizard API. Money in cents. Card numbers and CVVs are accepted in the
// source and BNPL-card requests only, and never appear in a response.
import { z } from 'zod';
import { BNPL_PROVIDERS, type BnplProviderId, type CardProviderId } from '../core/fees';
import { cents } from './common';

export const sourceType = z.enum(['credit', 'debit', 'prepaid', 'bnpl', 'internal']);
export const combineStatus = z.enum(['in_progress', 'incomplete', 'processing', 'completed', 'failed']);
export const cardType = z.enum(['general', 'single-use']);
export const bufferMode = z.enum(['percent', 'dollars']);

const positiveCents = z.number({ message: 'Please enter a valid amount' }).int('Amounts can have at most 2 decimal places.').positive('Please enter a valid amount').max(5_000_000, 'The maximum card amount is $50,000.00.');

// The amount step's raw inputs: the server computes the total itself (core/amount.ts).
export const amountInput = z.object({
  baseInput: z.string().max(32),
  bufferInput: z.string().max(32),
  bufferMode,
});

export const createCombineRequest = amountInput;

export const updateCombineRequest = z
  .object({
    baseInput: z.string().max(32),
    bufferInput: z.string().max(32),
    bufferMode,
    currentStep: z.number().int().min(1).max(7),
    bnplStepCompleted: z.boolean(),
    useBoost: z.boolean(),
    creationFeeSourceIdx: z.number().int().min(-1).max(19),
    cardType,
    formData: z.record(z.string(), z.unknown()),
  })
  .partial();

// The providers the form offers (core/fees.ts); which ones go with which type is the server's check.
const cardProvider = z.enum(['visa', 'mastercard', 'amex', 'discover', 'payweave_prepaid'] satisfies CardProviderId[], { message: 'Please select a provider' });
const bnplProvider = z.enum(Object.keys(BNPL_PROVIDERS) as [BnplProviderId, ...BnplProviderId[]], { message: 'Please select a provider' });

export const addSourceRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['credit', 'debit', 'prepaid']),
    provider: cardProvider,
    chargeCents: positiveCents,
    cardNumber: z.string().max(40),
    expMonth: z.number().int().min(1, 'Please enter a valid expiry date').max(12, 'Please enter a valid expiry date'),
    expYear: z.number().int().min(2000, 'Please enter a valid expiry date').max(2100, 'Please enter a valid expiry date'),
    cvv: z.string().max(8),
  }),
  z.object({
    type: z.literal('bnpl'),
    provider: bnplProvider,
    chargeCents: positiveCents,
  }),
  z.object({
    type: z.literal('internal'),
    sourceCardId: z.string().uuid('Please choose one of your cards'),
    chargeCents: positiveCents,
  }),
], { message: 'Please select a payment source type' });
export type AddSourceRequest = z.infer<typeof addSourceRequest>;

export const bnplCardRequest = z.object({
  cardNumber: z.string().max(40),
  expiry: z.string().max(10),
  cvv: z.string().max(8),
});

export const combineSource = z.object({
  id: z.string(),
  position: z.number().int(),
  type: sourceType,
  provider: z.string(),
  chargeCents: cents,
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  expMonth: z.number().int().nullable(),
  expYear: z.number().int().nullable(),
  status: z.enum(['authorized', 'captured', 'released']),
  sourceCardId: z.string().nullable(),
  bnplCardBrand: z.string().nullable(),
  bnplCardLast4: z.string().nullable(),
  // Fees as they stand at the user's current rate (the review's quote may differ with a boost).
  processorFeeCents: cents,
  productFeeCents: cents,
  netCents: cents,
  bnplFeeMaxCents: cents,
  bnplFeeActualCents: cents,
  rebateCents: cents,
  oneTimeCardChargeCents: cents.nullable(),
});
export type CombineSource = z.infer<typeof combineSource>;

export const fundingState = z.object({
  productFeePpm: z.number().int(),
  netTotalCents: cents,
  remainingToFundCents: cents,
  overfundCents: cents,
  canContinue: z.boolean(),
  /** The smallest charge that covers what is still needed, per source kind. */
  suggestedChargeCents: z.object({ card: cents, bnpl: cents, internal: cents }),
});

export const combine = z.object({
  id: z.string(),
  status: combineStatus,
  baseAmountCents: cents,
  taxBufferCents: cents,
  totalAmountCents: cents,
  includeTaxBuffer: z.boolean(),
  baseInput: z.string(),
  bufferInput: z.string(),
  bufferMode,
  currentStep: z.number().int(),
  bnplStepCompleted: z.boolean(),
  bnplCheckoutCompleted: z.boolean(),
  useBoost: z.boolean(),
  creationFeeSourceIdx: z.number().int(),
  cardType,
  /** This combine claimed one of the launch-promo spots (docs/rules.md#demo-mode promo_applied). */
  promoApplied: z.boolean(),
  /** The launch promo halved this combine's product fee: the claiming combine and every one completed while the promo ran. */
  promoDiscount: z.boolean(),
  bnplFeeMaxCents: cents,
  bnplFeeActualCents: cents,
  cardId: z.string().nullable(),
  rebateId: z.string().nullable(),
  formData: z.record(z.string(), z.unknown()),
  sources: z.array(combineSource),
  /** The card this combine created (completed combines only). */
  card: z
    .object({ id: z.string(), status: z.string(), frozen: z.boolean(), type: cardType, last4: z.string(), network: z.string(), originalAmountCents: cents, remainingAmountCents: cents, amountSpentCents: cents, issuedAt: z.string(), promoApplied: z.boolean() })
    .nullable(),
  /** BNPL rebates of this combine (completed combines only). */
  rebates: z.array(z.object({ id: z.string(), sourceId: z.string(), bnplFeeMaxCents: cents, bnplFeeActualCents: cents, rebateAmountCents: cents, status: z.enum(['pending', 'processed']), payoutMethod: z.string().nullable(), processedAt: z.string().nullable() })),
  funding: fundingState,
  createdAt: z.string(),
  updatedAt: z.string(),
  savedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  simulated: z.boolean(),
  testSource: z.string(),
  environment: z.string(),
});
export type Combine = z.infer<typeof combine>;

export const quoteRequest = z.object({
  useBoost: z.boolean().default(false),
  creationFeeSourceIdx: z.number().int().min(-1).max(19).default(-1),
  cardType: cardType.default('general'),
});

export const sourceQuote = z.object({
  index: z.number().int(),
  sourceId: z.string(),
  kind: z.enum(['card', 'bnpl', 'internal']),
  provider: z.string(),
  chargeCents: cents,
  processorFeeCents: cents,
  productFeeCents: cents,
  netCents: cents,
  bnplFeeMaxCents: cents,
  bnplFeeActualCents: cents,
  rebateCents: cents,
  creationFeeCents: cents,
  chargedCents: cents,
  oneTimeCardChargeCents: cents.nullable(),
});

export const quote = z.object({
  productFeePpm: z.number().int(),
  promoApplies: z.boolean(),
  /** True when completing this combine would claim one of the launch promo spots. */
  promoClaim: z.boolean(),
  boostUsed: z.boolean(),
  boost: z.object({ available: z.number().int(), used: z.number().int(), usable: z.boolean(), message: z.string().nullable() }),
  cardType,
  totalCents: cents,
  taxBufferCents: cents,
  sources: z.array(sourceQuote),
  productFeeCents: cents,
  processorFeeCents: cents,
  bnplFeeActualCents: cents,
  bnplFeeMaxCents: cents,
  rebateCents: cents,
  creationFeeCents: cents,
  creationFeeOnCard: z.boolean(),
  netTotalCents: cents,
  totalChargedCents: cents,
  cardAmountCents: cents,
  remainingToFundCents: cents,
  canContinue: z.boolean(),
});
export type Quote = z.infer<typeof quote>;

export const completeCombineRequest = z.object({
  useBoost: z.boolean(),
  creationFeeSourceIdx: z.number().int().min(-1).max(19),
  cardType,
  // What the user saw on the review step: if the server's figures differ, nothing is charged (409 quote_changed).
  expected: z.object({ cardAmountCents: cents, totalChargedCents: cents, productFeeCents: cents }),
});

export const issuedCard = z.object({
  id: z.string(),
  type: cardType,
  status: z.string(),
  network: z.enum(['visa', 'mastercard']),
  last4: z.string(),
  maskedNumber: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  originalAmountCents: cents,
  remainingAmountCents: cents,
  issuedAt: z.string(),
  validUntil: z.string(),
  promoApplied: z.boolean(),
  promoId: z.string().nullable(),
});

export const completeCombineResponse = z.object({
  combine,
  card: issuedCard,
  quote,
  promoApplied: z.boolean(),
  boostEarned: z.boolean(),
  boostMessage: z.string().nullable(),
});
export type CompleteCombineResponse = z.infer<typeof completeCombineResponse>;

export const saveCombineRequest = z.object({
  currentStep: z.number().int().min(1).max(7).optional(),
  formData: z.record(z.string(), z.unknown()).optional(),
});

export const listCombinesQuery = z.object({
  status: z.enum(['incomplete', 'completed']).default('completed'),
  range: z.enum(['all', '7d', '1m']).default('all'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const combineSummary = z.object({
  id: z.string(),
  status: combineStatus,
  totalAmountCents: cents,
  sourceCount: z.number().int(),
  currentStep: z.number().int(),
  promoApplied: z.boolean(),
  createdAt: z.string(),
  savedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** When a draft is deleted and its holds voided (decision 163); null for a combine that is no longer a draft. */
  keptUntil: z.string().nullable(),
  card: z
    .object({ id: z.string(), status: z.string(), frozen: z.boolean(), remainingAmountCents: cents, originalAmountCents: cents, last4: z.string() })
    .nullable(),
});
export const combineList = z.object({ combines: z.array(combineSummary) });
export type CombineSummary = z.infer<typeof combineSummary>;
