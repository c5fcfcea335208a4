// The Controls form of a card's details (docs/rules.md#card-controls): dollars as typed, one lock
// choice, one category rule. It only shapes what the owner typed into the API's request; whether
// the controls are allowed is the server's to say (core/spend-controls-validation.ts), and its
// field errors come back onto these fields (FIELD_OF_API_PATH).
import { z } from 'zod';
import type { CardControls, CardControlsRequest } from '../../../contracts/card-controls';
import { MESSAGES, centsToInputString, parseMoneyInput } from '../../../core/money';
import { SPEND_CATEGORIES, SPEND_CATEGORY_IDS, type SpendCategory } from '../../../core/spend-controls';
import { SPEND_CONTROLS_MESSAGES } from '../../../core/spend-controls-validation';

export const LIMIT_FIELDS = [
  { name: 'perDay', api: 'perDayCents', label: 'Daily limit (last 24 hours)' },
  { name: 'per30Days', api: 'per30DaysCents', label: '30-day limit' },
  { name: 'perYear', api: 'perYearCents', label: 'Yearly limit (last 365 days)' },
  { name: 'lifetime', api: 'lifetimeCents', label: 'Lifetime limit' },
  { name: 'perTransaction', api: 'perTransactionCents', label: 'Per purchase' },
] as const;

type LimitName = (typeof LIMIT_FIELDS)[number]['name'];

const limitInput = z.string().transform((text, ctx) => {
  if (text.trim() === '') return null;
  const parsed = parseMoneyInput(text);
  if (!parsed.ok || parsed.cents <= 0) {
    ctx.addIssue({ code: 'custom', message: parsed.ok || parsed.reason !== 'too_many_decimals' ? 'Enter an amount of at least $0.01, or leave it empty for no limit.' : MESSAGES.tooManyDecimals });
    return z.NEVER;
  }
  return parsed.cents;
});

export const controlsForm = z
  .object({
    perDay: limitInput,
    per30Days: limitInput,
    perYear: limitInput,
    lifetime: limitInput,
    perTransaction: limitInput,
    lockMode: z.enum(['off', 'first', 'named']),
    lockMerchant: z.string(),
    categoryMode: z.enum(['any', 'block', 'allow_only']),
    categories: z.record(z.string(), z.boolean()),
  })
  .superRefine((values, ctx) => {
    if (values.lockMode === 'named' && values.lockMerchant.trim() === '') ctx.addIssue({ code: 'custom', path: ['lockMerchant'], message: SPEND_CONTROLS_MESSAGES.merchantMissing });
    if (values.categoryMode !== 'any' && !SPEND_CATEGORY_IDS.some((id) => values.categories[id])) {
      ctx.addIssue({ code: 'custom', path: ['categoryMode'], message: 'Tick at least one category, or choose "Any category".' });
    }
  });

export type ControlsFormInput = z.input<typeof controlsForm>;
export type ControlsFormOutput = z.output<typeof controlsForm>;

export const CATEGORY_OPTIONS = SPEND_CATEGORIES.map(({ id, label }) => ({ value: id, label }));

/** The saved controls as the form shows them. */
export function formValuesOf(controls: CardControls): ControlsFormInput {
  const listed: readonly SpendCategory[] = controls.blockCategories.length > 0 ? controls.blockCategories : controls.allowOnlyCategories;
  const limits = Object.fromEntries(LIMIT_FIELDS.map(({ name, api }) => [name, controls[api] === null ? '' : centsToInputString(controls[api])])) as Record<LimitName, string>;
  return {
    ...limits,
    lockMode: controls.merchantLock.mode,
    lockMerchant: controls.merchantLock.mode === 'named' ? controls.merchantLock.merchant : '',
    categoryMode: controls.blockCategories.length > 0 ? 'block' : controls.allowOnlyCategories.length > 0 ? 'allow_only' : 'any',
    categories: Object.fromEntries(SPEND_CATEGORY_IDS.map((id) => [id, listed.includes(id)])),
  };
}

/** What PUT /api/cards/:id/controls is sent: every control, so the saved set is exactly the form's. */
export function requestOf(values: ControlsFormOutput): CardControlsRequest {
  const ticked = SPEND_CATEGORY_IDS.filter((id) => values.categories[id]);
  const limits = Object.fromEntries(LIMIT_FIELDS.map(({ name, api }) => [api, values[name]]));
  return {
    ...limits,
    merchantLock: values.lockMode === 'named' ? { mode: 'named', merchant: values.lockMerchant.trim() } : { mode: values.lockMode },
    blockCategories: values.categoryMode === 'block' ? ticked : [],
    allowOnlyCategories: values.categoryMode === 'allow_only' ? ticked : [],
  };
}

/** The form field a server's field error (`details[].path`) belongs on. */
export const FIELD_OF_API_PATH: Readonly<Record<string, keyof ControlsFormInput>> = {
  ...Object.fromEntries(LIMIT_FIELDS.map(({ name, api }) => [`/${api}`, name])),
  '/merchantLock': 'lockMerchant',
  '/blockCategories': 'categoryMode',
  '/allowOnlyCategories': 'categoryMode',
};
