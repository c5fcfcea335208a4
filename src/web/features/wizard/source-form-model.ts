// The add-source form's values, its schema (docs/rules.md#source-validation) and the request it
// makes, and where the API's field errors go: everything of SourceForm that is not React.
import { z } from 'zod';
import { CARD_MESSAGES, checkSourceForm } from '../../../core/cards';
import type { SourceFormField } from '../../../core/cards';
import { bnplSourceFees, cardSourceFees, internalSourceFees } from '../../../core/fees';
import type { SourceKind, SourceType } from '../../../core/fees';
import { centsToInputString, formatUsd, MESSAGES, parseMoneyInput } from '../../../core/money';
import type { AddSourceRequest, Combine } from '../../../contracts/combines';
import type { ActiveCard } from './api';
import type { ApiFieldError, SourcePrefill } from './use-wizard';

export type FormType = SourceType | 'internal' | '';
/** A field an error can be shown on: the expiry month and year share 'expiry'. */
export type SourceField = SourceFormField | 'sourceCardId';

export const CHOOSE_CARD_MESSAGE = 'Please choose one of your cards';

const sourceFormValues = z.object({
  type: z.string(),
  provider: z.string(),
  sourceCardId: z.string(),
  amount: z.string(),
  cardNumber: z.string(),
  expiryMonth: z.string(),
  expiryYear: z.string(),
  cvv: z.string(),
});
export type SourceFormValues = z.input<typeof sourceFormValues>;

export const EMPTY_SOURCE_FORM: SourceFormValues = { type: '', provider: '', sourceCardId: '', amount: '', cardNumber: '', expiryMonth: '', expiryYear: '', cvv: '' };

export function kindOf(type: string): SourceKind {
  if (type === 'bnpl') return 'bnpl';
  if (type === 'internal') return 'internal';
  return 'card';
}

export function initialSourceForm(prefill: SourcePrefill | null, combine: Combine): SourceFormValues {
  if (!prefill) return EMPTY_SOURCE_FORM;
  // What the new card still needs, at most the card's balance: the whole balance of a card that
  // holds more than needed would move the extra to the new card too.
  const neededCents = combine.funding.remainingToFundCents > 0 ? combine.funding.suggestedChargeCents.internal : null;
  const amountCents = prefill.amountCents === null ? neededCents : neededCents === null ? prefill.amountCents : Math.min(prefill.amountCents, neededCents);
  return { ...EMPTY_SOURCE_FORM, type: 'internal', sourceCardId: prefill.sourceCardId, amount: amountCents !== null ? centsToInputString(amountCents) : '' };
}

type Built = { ok: true; request: AddSourceRequest } | { ok: false; field: SourceField; message: string };

/** The request the values make, or the first problem (in the spec's order) with the field it belongs to. */
export function sourceRequest(form: SourceFormValues, cardChoices: readonly ActiveCard[], now: Date): Built {
  if (form.type === 'internal') {
    const chosen = cardChoices.find((c) => c.id === form.sourceCardId);
    if (!chosen) return { ok: false, field: 'sourceCardId', message: CHOOSE_CARD_MESSAGE };
    const parsed = parseMoneyInput(form.amount);
    if (!parsed.ok || parsed.cents <= 0) {
      return { ok: false, field: 'amount', message: parsed.ok || parsed.reason !== 'too_many_decimals' ? CARD_MESSAGES.invalidAmount : MESSAGES.tooManyDecimals };
    }
    if (chosen.last4 !== '' && parsed.cents > chosen.remainingAmountCents) {
      return { ok: false, field: 'amount', message: `Amount cannot exceed remaining balance (${formatUsd(chosen.remainingAmountCents)})` };
    }
    return { ok: true, request: { type: 'internal', sourceCardId: chosen.id, chargeCents: parsed.cents } };
  }
  const { type, provider, amount, cardNumber, expiryMonth, expiryYear, cvv } = form;
  const result = checkSourceForm({ type, provider, amountInput: amount, cardNumber, expiryMonth, expiryYear, cvv }, now);
  if (!result.ok) return result;
  if (!result.card) return { ok: true, request: { type: 'bnpl', provider: result.provider, chargeCents: result.chargeCents } };
  const { card } = result;
  return {
    ok: true,
    request: { type: result.type, provider: result.provider, chargeCents: result.chargeCents, cardNumber: card.number, expMonth: card.expiryMonth, expYear: card.expiryYear, cvv: card.cvv },
  };
}

/** The form's schema: its output is the request; a refusal is one issue, on its field, as the toast says it. */
export function sourceFormSchema(cardChoices: readonly ActiveCard[]) {
  return sourceFormValues.transform((form, ctx): AddSourceRequest => {
    const built = sourceRequest(form, cardChoices, new Date());
    if (built.ok) return built.request;
    ctx.addIssue({ code: 'custom', path: [built.field], message: built.message });
    return z.NEVER;
  });
}

// The request's fields (addSourceRequest in src/contracts/combines.ts) as the API's `details` name
// them, JSON pointers, and the form field each is typed in.
const FIELD_OF_API_PATH: Readonly<Record<string, SourceField>> = {
  '/type': 'type',
  '/provider': 'provider',
  '/sourceCardId': 'sourceCardId',
  '/chargeCents': 'amount',
  '/cardNumber': 'cardNumber',
  '/expMonth': 'expiry',
  '/expYear': 'expiry',
  '/cvv': 'cvv',
};

/**
 * The API's field errors by the form field their `details` path names (never by their words), the
 * first for each field; paths the form has no field for are left out.
 */
export function apiErrorsByField(fieldErrors: readonly ApiFieldError[]): [SourceField, string][] {
  const byField = new Map<SourceField, string>();
  for (const { path, message } of fieldErrors) {
    const field = Object.hasOwn(FIELD_OF_API_PATH, path) ? FIELD_OF_API_PATH[path] : undefined;
    if (field && !byField.has(field)) byField.set(field, message);
  }
  return [...byField];
}

export type SourcePreview = ReturnType<typeof bnplSourceFees> & { bnpl: boolean };

/** What the typed amount would bring, at the user's current rate (the review shows the final quote). */
export function sourcePreview(form: SourceFormValues, combine: Combine): SourcePreview | null {
  const parsed = parseMoneyInput(form.amount);
  if (!parsed.ok || parsed.cents <= 0 || form.type === '') return null;
  const kind = kindOf(form.type);
  const ppm = combine.funding.productFeePpm;
  if (kind === 'bnpl') return { ...bnplSourceFees(parsed.cents, form.provider || 'other', ppm), bnpl: true };
  const fees = kind === 'internal' ? internalSourceFees(parsed.cents, ppm) : cardSourceFees(parsed.cents, ppm);
  return { ...fees, bnplFeeMaxCents: 0, bnplFeeActualCents: 0, rebateCents: 0, oneTimeCardChargeCents: 0, bnpl: false };
}
