// Money is always an integer number of US cents and rates are integer parts per million
// (docs/rules.md#money-cents). Everything that multiplies or divides goes through BigInt so that no
// float ever rounds an amount, and a single rounding rule (half up) is used everywhere.

export const PPM_PER_UNIT = 1_000_000;

/** Largest amount a single virtual card may hold: $50,000.00 (docs/rules.md#max-card-amount). */
export const MAX_CARD_AMOUNT_CENTS = 5_000_000;

export const MESSAGES = {
  tooManyDecimals: 'Amounts can have at most 2 decimal places.',
  maxCardAmount: 'The maximum card amount is $50,000.00.',
} as const;

/** Throws unless `value` is a safe integer: anything else cannot be an exact cent amount. */
export function assertCents(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new TypeError(`${name} must be a safe integer number of cents, got ${String(value)}`);
  }
}

/** For amounts that cannot be negative: charges, fees, balances, requested totals. */
export function assertNonNegativeCents(value: unknown, name: string): asserts value is number {
  assertCents(value, name);
  if (value < 0) throw new RangeError(`${name} must not be negative, got ${value}`);
}

/** A rate in ppm; above 100% would mean a fee larger than the amount it is taken from. */
export function assertPpm(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new TypeError(`${name} must be an integer rate in ppm, got ${String(value)}`);
  }
  if (value < 0 || value > PPM_PER_UNIT) {
    throw new RangeError(`${name} must be between 0 and ${PPM_PER_UNIT} ppm, got ${value}`);
  }
}

function toSafeNumber(value: bigint, name: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${name} is outside the safe integer range`);
  }
  return Number(value);
}

/**
 * round_half_up(numerator / denominator) for non-negative integers, exactly.
 * Half up on non-negative values is floor(x + 1/2) = floor((2n + d) / 2d).
 */
export function divRoundHalfUp(numerator: number, denominator: number): number {
  assertNonNegativeCents(numerator, 'numerator');
  if (!Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new RangeError(`denominator must be a positive safe integer, got ${denominator}`);
  }
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  return toSafeNumber((2n * n + d) / (2n * d), 'quotient');
}

/** The one rounding rule of docs/rules.md#rounding: round_half_up(amountCents * ratePpm / 1e6). */
export function applyPpm(amountCents: number, ratePpm: number): number {
  assertNonNegativeCents(amountCents, 'amountCents');
  assertPpm(ratePpm, 'ratePpm');
  const product = BigInt(amountCents) * BigInt(ratePpm);
  return toSafeNumber((product + 500_000n) / 1_000_000n, 'applyPpm result');
}

const usdFormatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * "$1,234.56". The amount is handed to Intl as a decimal string, not as cents / 100,
 * so that no binary fraction can shift the last digit of a large amount.
 */
export function formatUsd(cents: number): string {
  assertCents(cents, 'cents');
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const decimal = `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return usdFormatter.format(decimal as `${number}`);
}

/** "12.50": the form a money input is pre-filled with (no currency sign, no grouping). */
export function centsToInputString(cents: number): string {
  assertNonNegativeCents(cents, 'cents');
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** 10 000 ppm → "1%", 1 250 ppm → "0.125%": rates shown to users without float noise. */
export function formatPpmAsPercent(ratePpm: number): string {
  assertPpm(ratePpm, 'ratePpm');
  const whole = Math.floor(ratePpm / 10_000);
  const fraction = String(ratePpm % 10_000).padStart(4, '0').replace(/0+$/, '');
  return fraction === '' ? `${whole}%` : `${whole}.${fraction}%`;
}

export type MoneyParseFailure = 'empty' | 'not_numeric' | 'too_many_decimals' | 'too_large';

export type MoneyParseResult =
  | { ok: true; cents: number }
  | { ok: false; reason: MoneyParseFailure };

// Digits with at most one decimal point; signs, grouping commas, exponents and spaces inside
// the number are refused rather than guessed at.
const MONEY_PATTERN = /^(\d*)(?:\.(\d*))?$/;

// More whole-dollar digits than this cannot be a safe number of cents; checking the length
// first also keeps a pasted megabyte of digits from reaching BigInt.
const MAX_WHOLE_DIGITS = 14;

/**
 * Parses what a user typed into a money field into cents. Leading/trailing spaces are
 * ignored; "12", "12.", ".5" and "12.50" are accepted; "1.234" is too many decimals
 * (docs/rules.md#money-cents), even when the extra digits are zeros, because the user typed them.
 * 'too_large' means the amount is not representable; callers report it with the
 * maximum-amount message.
 */
export function parseMoneyInput(text: string): MoneyParseResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  const match = MONEY_PATTERN.exec(trimmed);
  if (!match) return { ok: false, reason: 'not_numeric' };
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return { ok: false, reason: 'not_numeric' };
  if (fraction.length > 2) return { ok: false, reason: 'too_many_decimals' };
  if (whole.length > MAX_WHOLE_DIGITS) return { ok: false, reason: 'too_large' };
  const cents = BigInt(whole === '' ? '0' : whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, reason: 'too_large' };
  return { ok: true, cents: Number(cents) };
}
