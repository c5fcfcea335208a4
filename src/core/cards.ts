// Card numbers, brands, masking, expiry and the add-source / BNPL card-entry validation.
// Demo mode accepts made-up source numbers (docs/rules.md#source-validation), so sources are checked for shape only,
// never for Luhn; the virtual cards PayWeave issues are always Luhn-valid (docs/rules.md#card-numbers).

import { addDays, addMonths } from './dates';
import { isProviderAllowed, isSourceType } from './fees';
import type { BnplProviderId, CardProviderId, SourceType } from './fees';
import { MESSAGES, parseMoneyInput } from './money';

/** The public demo test number whose pre-authorisation always fails with insufficient_funds (docs/rules.md#demo-declines); not a real card. */
export const DECLINE_TEST_CARD = '4000000000009995';

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover';
export type VirtualCardNetwork = 'visa' | 'mastercard';
export type VirtualCardType = 'general' | 'single-use';

export const CARD_BRAND_LABELS: Readonly<Record<CardBrand, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'Amex',
  discover: 'Discover',
};

export const CARD_VALIDITY = {
  generalMonths: 12,
  singleUseDays: 30,
} as const;

export const CARD_MESSAGES = {
  selectType: 'Please select a payment source type',
  selectProvider: 'Please select a provider',
  invalidAmount: 'Please enter a valid amount',
  invalidCardNumber: 'Please enter a valid card number',
  invalidExpiry: 'Please enter a valid expiry date',
  invalidCvv: 'Please enter a valid CVV',
  bnplInvalidCardNumber: 'Please enter a valid card number.',
  bnplInvalidExpiry: 'Please enter expiry as MM/YY.',
  /** Not in the spec: a well-formed MM/YY that has ended is not a format mistake (as the upgrade form says). */
  bnplExpired: 'This card has expired.',
  bnplInvalidCvv: 'Please enter a valid CVV.',
} as const;

/** Removes the spaces and dashes people type or paste between digit groups. */
export function normaliseCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The digits typed into a card field, in groups of four ("4242 4242 ..."), at most 19 digits. */
export function groupCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function luhnSum(digits: string, doubleFirstFromRight: boolean): number {
  let sum = 0;
  let double = doubleFirstFromRight;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum;
}

export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  return luhnSum(digits, false) % 10 === 0;
}

/** The digit that, appended to `partial`, makes a Luhn-valid number. */
export function luhnCheckDigit(partial: string): number {
  if (!/^\d+$/.test(partial)) throw new TypeError('partial card number must be digits');
  return (10 - (luhnSum(partial, true) % 10)) % 10;
}

function drawDigit(randomDigit: () => number): number {
  const d = randomDigit();
  if (!Number.isInteger(d) || d < 0 || d > 9) {
    throw new RangeError(`randomDigit must return an integer 0-9, got ${d}`);
  }
  return d;
}

/**
 * A 16-digit, Luhn-valid virtual card number: Visa starts with 4, Mastercard with 51-55.
 * The second Mastercard digit is (d mod 5) + 1, which stays uniform because 10 is a multiple of 5.
 */
export function generateCardNumber(network: VirtualCardNetwork, randomDigit: () => number): string {
  let partial = network === 'visa' ? '4' : `5${(drawDigit(randomDigit) % 5) + 1}`;
  while (partial.length < 15) partial += String(drawDigit(randomDigit));
  return partial + String(luhnCheckDigit(partial));
}

/** Three random digits for a demo virtual card's CVV. */
export function generateCvv(randomDigit: () => number): string {
  return [0, 1, 2].map(() => String(drawDigit(randomDigit))).join('');
}

export function detectBrand(cardNumber: string): CardBrand | null {
  const digits = normaliseCardNumber(cardNumber);
  if (!/^\d+$/.test(digits)) return null;
  if (digits.startsWith('4')) return 'visa';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^5[1-5]/.test(digits)) return 'mastercard';
  const first4 = Number(digits.slice(0, 4));
  if (digits.length >= 4 && first4 >= 2221 && first4 <= 2720) return 'mastercard';
  if (digits.startsWith('6')) return 'discover';
  return null;
}

export function last4(cardNumber: string): string {
  const digits = normaliseCardNumber(cardNumber);
  if (!/^\d{4,}$/.test(digits)) throw new TypeError('card number must have at least 4 digits');
  return digits.slice(-4);
}

export function maskCardNumber(lastFour: string): string {
  if (!/^\d{4}$/.test(lastFour)) throw new TypeError('last4 must be exactly 4 digits');
  return `•••• •••• •••• ${lastFour}`;
}

/** Current year and the next 9, for the expiry-year select (docs/rules.md#source-validation). */
export function expiryYearOptions(now: Date): number[] {
  const year = now.getUTCFullYear();
  return Array.from({ length: 10 }, (_, i) => year + i);
}

/** A card is usable through the last day of its expiry month. */
export function isExpiryPast(expiryMonth: number, expiryYear: number, now: Date): boolean {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return expiryYear * 12 + (expiryMonth - 1) < current;
}

/** When an issued virtual card stops being usable (docs/rules.md#cards). */
export function cardExpiresAt(type: VirtualCardType, issuedAt: Date): Date {
  return type === 'general'
    ? addMonths(issuedAt, CARD_VALIDITY.generalMonths)
    : addDays(issuedAt, CARD_VALIDITY.singleUseDays);
}

/**
 * The MM / YY printed on a virtual card: the month its validity ends (docs/decisions/051). The
 * spec's "demo expiry three years ahead" printed 11/29 on a card the product said was usable until
 * Nov 2027; one date, shown the same everywhere, is the one a user can trust.
 */
export function printedExpiry(validUntil: Date): { expiryMonth: string; expiryYear: string } {
  const expiry = validUntil;
  return {
    expiryMonth: String(expiry.getUTCMonth() + 1).padStart(2, '0'),
    expiryYear: String(expiry.getUTCFullYear() % 100).padStart(2, '0'),
  };
}

function parseMonth(text: string): number | null {
  if (!/^\d{1,2}$/.test(text)) return null;
  const month = Number(text);
  return month >= 1 && month <= 12 ? month : null;
}

export interface SourceFormInput {
  type: string;
  provider: string;
  amountInput: string;
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
}

export type SourceFormResult =
  | {
      ok: true;
      type: Exclude<SourceType, 'bnpl'>;
      provider: CardProviderId;
      chargeCents: number;
      card: { number: string; expiryMonth: number; expiryYear: number; cvv: string };
    }
  /** Card fields are null for BNPL: its card is entered later, at the checkout step. */
  | { ok: true; type: 'bnpl'; provider: BnplProviderId; chargeCents: number; card: null }
  | { ok: false; message: string };

/** The add-source form's fields a failed check belongs to: the expiry month and year are one. */
export type SourceFormField = 'type' | 'provider' | 'amount' | 'cardNumber' | 'expiry' | 'cvv';
/** validateSourceForm's answer with the field of a failed check, for a form that marks the field. */
export type SourceFormCheck = Exclude<SourceFormResult, { ok: false }> | { ok: false; field: SourceFormField; message: string };

/**
 * The add-source form (docs/rules.md#source-validation), checked in the spec's order so the toast names the first
 * problem. Stricter than the spec where a looser check would accept nonsense: the card number
 * must be 15-19 digits (not any 15 characters), the CVV 3-4 digits, and an expiry month that
 * has already ended is refused with the expiry message.
 */
export function validateSourceForm(input: SourceFormInput, now: Date): SourceFormResult {
  const checked = checkSourceForm(input, now);
  return checked.ok ? checked : { ok: false, message: checked.message };
}

/** validateSourceForm, with the field each failed check belongs to. */
export function checkSourceForm(input: SourceFormInput, now: Date): SourceFormCheck {
  if (!isSourceType(input.type)) return { ok: false, field: 'type', message: CARD_MESSAGES.selectType };
  const type = input.type;
  if (!isProviderAllowed(type, input.provider)) return { ok: false, field: 'provider', message: CARD_MESSAGES.selectProvider };
  const provider = input.provider;

  const amount = parseMoneyInput(input.amountInput);
  if (!amount.ok) {
    return {
      ok: false,
      field: 'amount',
      message: amount.reason === 'too_many_decimals' ? MESSAGES.tooManyDecimals : CARD_MESSAGES.invalidAmount,
    };
  }
  if (amount.cents <= 0) return { ok: false, field: 'amount', message: CARD_MESSAGES.invalidAmount };

  // isProviderAllowed checked that the provider is one of this type's, so the casts hold.
  if (type === 'bnpl') return { ok: true, type, provider: provider as BnplProviderId, chargeCents: amount.cents, card: null };

  const yearText = input.expiryYear.trim();
  const card = {
    number: normaliseCardNumber(input.cardNumber),
    expiryMonth: parseMonth(input.expiryMonth.trim()) ?? 0,
    expiryYear: /^\d{4}$/.test(yearText) ? Number(yearText) : 0,
    cvv: input.cvv.trim(),
  };
  const issue = sourceCardIssue(card, provider, now);
  if (issue !== null) return { ok: false, ...issue };
  return { ok: true, type, provider: provider as CardProviderId, chargeCents: amount.cents, card };
}

/**
 * A card network chosen as the provider must be the number's network (decision 162): the source
 * is listed by the number's brand, so "Visa" with a Mastercard number would be shown, and
 * charged, as a Mastercard. PayWeave Prepaid runs on any network, and a number whose network is
 * not recognised (demo mode takes made-up numbers) cannot contradict anything.
 */
export function providerBrandProblem(provider: string, cardNumber: string): string | null {
  if (!Object.hasOwn(CARD_BRAND_LABELS, provider)) return null;
  const brand = detectBrand(cardNumber);
  if (brand === null || brand === provider) return null;
  const numberIs = CARD_BRAND_LABELS[brand];
  return `This card number belongs to ${numberIs}, not ${CARD_BRAND_LABELS[provider as CardBrand]}. Choose ${numberIs} as the provider, or check the number.`;
}

/**
 * The card fields of a Credit/Debit/Prepaid source, for callers that already hold numbers
 * (the server's request schema): 15-19 digits once spaces and dashes are removed, of the
 * provider's network when the provider is one, month 1-12 with a four-digit year whose month
 * has not ended, CVV of 3-4 digits. Returns the message of the first problem, or null.
 */
export function sourceCardProblem(
  card: { number: string; expiryMonth: number; expiryYear: number; cvv: string },
  provider: string,
  now: Date,
): string | null {
  return sourceCardIssue(card, provider, now)?.message ?? null;
}

/** sourceCardProblem with the field it belongs to: a number of another network is the provider's problem. */
function sourceCardIssue(
  card: { number: string; expiryMonth: number; expiryYear: number; cvv: string },
  provider: string,
  now: Date,
): { field: SourceFormField; message: string } | null {
  if (!/^\d{15,19}$/.test(normaliseCardNumber(card.number))) return { field: 'cardNumber', message: CARD_MESSAGES.invalidCardNumber };
  const mismatch = providerBrandProblem(provider, card.number);
  if (mismatch !== null) return { field: 'provider', message: mismatch };
  const { expiryMonth, expiryYear } = card;
  const monthOk = Number.isInteger(expiryMonth) && expiryMonth >= 1 && expiryMonth <= 12;
  const yearOk = Number.isInteger(expiryYear) && expiryYear >= 1000 && expiryYear <= 9999;
  if (!monthOk || !yearOk || isExpiryPast(expiryMonth, expiryYear, now)) return { field: 'expiry', message: CARD_MESSAGES.invalidExpiry };
  if (!/^\d{3,4}$/.test(card.cvv.trim())) return { field: 'cvv', message: CARD_MESSAGES.invalidCvv };
  return null;
}

export type BnplCardEntryResult =
  | { ok: true; number: string; expiryMonth: number; expiryYear: number; cvv: string }
  | { ok: false; message: string };
/** validateBnplCardEntry's answer with the field of a failed check, for a form that marks the field. */
export type BnplCardEntryCheck = Exclude<BnplCardEntryResult, { ok: false }> | { ok: false; field: 'cardNumber' | 'expiry' | 'cvv'; message: string };

/**
 * The BNPL one-time card form (docs/rules.md#bnpl-steps): number of 14-19 digits once spaces are removed,
 * expiry as MM/YY, CVV of 3-4 digits. An already-ended MM/YY is refused, since a one-time card
 * that has expired cannot be charged, and says so: telling the user to type MM/YY, which they
 * did, would leave them looking for a format mistake.
 */
export function validateBnplCardEntry(
  input: { cardNumber: string; expiry: string; cvv: string },
  now: Date,
): BnplCardEntryResult {
  const checked = checkBnplCardEntry(input, now);
  return checked.ok ? checked : { ok: false, message: checked.message };
}

/** validateBnplCardEntry, with the field each failed check belongs to. */
export function checkBnplCardEntry(
  input: { cardNumber: string; expiry: string; cvv: string },
  now: Date,
): BnplCardEntryCheck {
  const number = normaliseCardNumber(input.cardNumber);
  if (!/^\d{14,19}$/.test(number)) return { ok: false, field: 'cardNumber', message: CARD_MESSAGES.bnplInvalidCardNumber };
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(input.expiry.trim());
  if (!match) return { ok: false, field: 'expiry', message: CARD_MESSAGES.bnplInvalidExpiry };
  const expiryMonth = Number(match[1]);
  // Two-digit years are this century: a one-time card issued today cannot expire in the 2100s.
  const expiryYear = 2000 + Number(match[2]);
  if (isExpiryPast(expiryMonth, expiryYear, now)) return { ok: false, field: 'expiry', message: CARD_MESSAGES.bnplExpired };
  const cvv = input.cvv.trim();
  if (!/^\d{3,4}$/.test(cvv)) return { ok: false, field: 'cvv', message: CARD_MESSAGES.bnplInvalidCvv };
  return { ok: true, number, expiryMonth, expiryYear, cvv };
}
