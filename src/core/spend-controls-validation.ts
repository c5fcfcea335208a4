// What an owner may set as a card's controls (spend-controls.ts), checked before they are stored.
// The input keeps blocked and allowed-only categories apart, as a form has them, so that asking
// for both is something to refuse with a message rather than a shape that cannot be written.
import {
  DEFAULT_CONTROLS,
  isSpendCategory,
  SPEND_CATEGORY_IDS,
  type CategoryRule,
  type MerchantLock,
  type SpendCategory,
  type SpendControls,
  type SpendLimits,
} from './spend-controls';

/** Absent or null limits are unset; absent lock is off; no categories listed is any category. */
export type SpendControlsInput = Partial<Record<keyof SpendLimits, number | null>> & {
  merchantLock?: MerchantLock;
  blockCategories?: readonly string[];
  allowOnlyCategories?: readonly string[];
};

export type SpendControlsField = keyof SpendControlsInput;

export type SpendControlsValidation =
  | { ok: true; controls: SpendControls }
  | { ok: false; errors: { field: SpendControlsField; message: string }[] };

/** The same bound as a purchase's merchant (contracts/cards.ts), so any merchant a purchase names can be locked to. */
export const MAX_MERCHANT_NAME_LENGTH = 80;

const LIMIT_NAMES: Readonly<Record<keyof SpendLimits, string>> = {
  perTransactionCents: 'per-purchase limit',
  perDayCents: 'daily limit',
  per30DaysCents: '30-day limit',
  perYearCents: 'yearly limit',
  lifetimeCents: 'lifetime limit',
};

export const SPEND_CONTROLS_MESSAGES = {
  limit: (name: string) => `The ${name} must be at least $0.01, in whole cents.`,
  merchantMissing: 'Enter the merchant this card is locked to.',
  merchantTooLong: `Merchant names can be at most ${MAX_MERCHANT_NAME_LENGTH} characters.`,
  blockAndAllow: 'Block some categories or allow only some, not both.',
  unknownCategory: (value: string) => `"${value}" is not a merchant category.`,
  everyCategoryBlocked: 'Blocking every category would decline every purchase. Freeze the card instead.',
} as const;

export function validateSpendControls(input: SpendControlsInput): SpendControlsValidation {
  const errors: { field: SpendControlsField; message: string }[] = [];
  const limits: SpendLimits = { perTransactionCents: null, perDayCents: null, per30DaysCents: null, perYearCents: null, lifetimeCents: null };
  for (const field of Object.keys(LIMIT_NAMES) as (keyof SpendLimits)[]) {
    const value = input[field] ?? null;
    if (value !== null && !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) {
      errors.push({ field, message: SPEND_CONTROLS_MESSAGES.limit(LIMIT_NAMES[field]) });
    }
    limits[field] = value;
  }

  let merchantLock: MerchantLock = input.merchantLock ?? DEFAULT_CONTROLS.merchantLock;
  if (merchantLock.mode === 'named') {
    const merchant = typeof merchantLock.merchant === 'string' ? merchantLock.merchant.trim() : '';
    if (merchant === '') errors.push({ field: 'merchantLock', message: SPEND_CONTROLS_MESSAGES.merchantMissing });
    else if (merchant.length > MAX_MERCHANT_NAME_LENGTH) errors.push({ field: 'merchantLock', message: SPEND_CONTROLS_MESSAGES.merchantTooLong });
    merchantLock = { mode: 'named', merchant };
  } else {
    merchantLock = { mode: merchantLock.mode === 'first' ? 'first' : 'off' };
  }

  const block = categoryList('blockCategories', input.blockCategories, errors);
  const allowOnly = categoryList('allowOnlyCategories', input.allowOnlyCategories, errors);
  let categories: CategoryRule = DEFAULT_CONTROLS.categories;
  if (block.length > 0 && allowOnly.length > 0) {
    errors.push({ field: 'allowOnlyCategories', message: SPEND_CONTROLS_MESSAGES.blockAndAllow });
  } else if (block.length === SPEND_CATEGORY_IDS.length) {
    errors.push({ field: 'blockCategories', message: SPEND_CONTROLS_MESSAGES.everyCategoryBlocked });
  } else if (block.length > 0) {
    categories = { mode: 'block', list: block };
  } else if (allowOnly.length > 0 && allowOnly.length < SPEND_CATEGORY_IDS.length) {
    // Allowing every category is no rule at all, and is stored as such.
    categories = { mode: 'allow_only', list: allowOnly };
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, controls: { ...limits, merchantLock, categories } };
}

/** The known categories listed, once each and in the UI's order; an unknown one is an error. */
function categoryList(field: SpendControlsField, values: readonly string[] | undefined, errors: { field: SpendControlsField; message: string }[]): SpendCategory[] {
  const listed = new Set<SpendCategory>();
  for (const value of values ?? []) {
    if (isSpendCategory(value)) listed.add(value);
    else errors.push({ field, message: SPEND_CONTROLS_MESSAGES.unknownCategory(String(value)) });
  }
  return SPEND_CATEGORY_IDS.filter((id) => listed.has(id));
}

/** The stored controls as the form (and validateSpendControls) takes them, to edit them. */
export function spendControlsInput(controls: SpendControls): SpendControlsInput {
  const { merchantLock, categories, ...limits } = controls;
  return {
    ...limits,
    merchantLock,
    blockCategories: categories.mode === 'block' ? [...categories.list] : [],
    allowOnlyCategories: categories.mode === 'allow_only' ? [...categories.list] : [],
  };
}
