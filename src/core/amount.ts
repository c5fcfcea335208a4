// Wizard step 1: base amount plus a tax buffer gives the card total.

import { MAX_CARD_AMOUNT_CENTS, MESSAGES, parseMoneyInput } from './money';

export const RECOMMENDED_TAX_BUFFER_PERCENT = 10;

export type BufferMode = 'percent' | 'dollars';

export const AMOUNT_MESSAGES = {
  notNumeric: 'Both fields must contain only numbers or a decimal point.',
  notPositive: 'Please enter a positive total and non-negative buffer.',
  tooManyDecimals: MESSAGES.tooManyDecimals,
  maxCardAmount: MESSAGES.maxCardAmount,
} as const;

export type CombineTotalResult =
  | { ok: true; baseCents: number; taxBufferCents: number; totalCents: number }
  | { ok: false; message: string };

// The spec's character rule: digits and at most one decimal point (empty passes this test
// and is then refused as not positive, as in the spec's order of checks).
const NUMERIC_CHARS = /^\d*\.?\d*$/;

/**
 * Checks run in the spec's order: characters, then decimals (docs/rules.md#amount-input), then sign, then
 * the card maximum. A percent buffer is read like an amount with 2 decimals, so "7.5" is
 * 750 hundredths of a percent = 75 000 ppm, and the buffer is rounded half up to the cent:
 * $333.33 at 7.5% = 2 499.975 cents → $25.00.
 */
export function computeCombineTotal(input: {
  baseInput: string;
  bufferInput: string;
  bufferMode: BufferMode;
}): CombineTotalResult {
  const baseText = input.baseInput.trim();
  const bufferText = input.bufferInput.trim();
  if (!NUMERIC_CHARS.test(baseText) || !NUMERIC_CHARS.test(bufferText)) {
    return { ok: false, message: AMOUNT_MESSAGES.notNumeric };
  }
  const base = parseMoneyInput(baseText);
  const buffer = parseMoneyInput(bufferText);
  const failures = [base, buffer].flatMap((r) => (r.ok ? [] : [r.reason]));
  if (failures.includes('too_many_decimals')) return { ok: false, message: AMOUNT_MESSAGES.tooManyDecimals };
  if (failures.includes('too_large')) return { ok: false, message: AMOUNT_MESSAGES.maxCardAmount };
  // What is left is an empty field or a lone ".", neither of which is a positive number.
  if (!base.ok || !buffer.ok || base.cents <= 0) return { ok: false, message: AMOUNT_MESSAGES.notPositive };

  const baseCents = base.cents;
  if (baseCents > MAX_CARD_AMOUNT_CENTS) return { ok: false, message: AMOUNT_MESSAGES.maxCardAmount };

  let taxBufferCents: number;
  if (input.bufferMode === 'percent') {
    // Hundredths of a percent × 100 = ppm: this is round_half_up(base × ppm / 1e6), written out
    // in BigInt because a buffer above 100% is allowed and would leave applyPpm's rate range.
    const ppm = BigInt(buffer.cents) * 100n;
    const exact = (BigInt(baseCents) * ppm + 500_000n) / 1_000_000n;
    if (exact > BigInt(MAX_CARD_AMOUNT_CENTS)) return { ok: false, message: AMOUNT_MESSAGES.maxCardAmount };
    taxBufferCents = Number(exact);
  } else {
    taxBufferCents = buffer.cents;
  }

  const totalCents = baseCents + taxBufferCents;
  if (totalCents > MAX_CARD_AMOUNT_CENTS) return { ok: false, message: AMOUNT_MESSAGES.maxCardAmount };
  return { ok: true, baseCents, taxBufferCents, totalCents };
}
