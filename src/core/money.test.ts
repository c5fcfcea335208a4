import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyPpm,
  assertCents,
  assertNonNegativeCents,
  centsToInputString,
  divRoundHalfUp,
  formatPpmAsPercent,
  formatUsd,
  MAX_CARD_AMOUNT_CENTS,
  MESSAGES,
  parseMoneyInput,
} from './money';

describe('applyPpm: the one rounding rule round_half_up(amount * ppm / 1e6)', () => {
  it('rounds exact halves up', () => {
    expect(applyPpm(50, 10_000)).toBe(1); // 0.5 → 1
    expect(applyPpm(150, 10_000)).toBe(2); // 1.5 → 2
    expect(applyPpm(49, 10_000)).toBe(0); // 0.49 → 0
  });
  it('matches the DECISIONS processor example: 2.9% of $123.25 is 357.425 → 357 cents', () => {
    expect(applyPpm(12_325, 29_000)).toBe(357);
  });
  it('is exact for amounts where float multiplication would be off', () => {
    // 9_007_199_254_740_991 * 1% in floats cannot be represented; BigInt gets it exactly.
    expect(applyPpm(Number.MAX_SAFE_INTEGER, 10_000)).toBe(90_071_992_547_410);
  });
  it('equals a BigInt reference for any amount and rate', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 10_000_000_000 }),
      fc.integer({ min: 0, max: 1_000_000 }),
      (amount, ppm) => {
        const exact = (BigInt(amount) * BigInt(ppm) * 2n + 1_000_000n) / 2_000_000n;
        expect(applyPpm(amount, ppm)).toBe(Number(exact));
      },
    ));
  });
  it('refuses non-integer, unsafe or negative amounts and out-of-range rates', () => {
    expect(() => applyPpm(1.5, 10)).toThrow(TypeError);
    expect(() => applyPpm(Number.MAX_SAFE_INTEGER + 1, 10)).toThrow(TypeError);
    expect(() => applyPpm(-1, 10)).toThrow(RangeError);
    expect(() => applyPpm(100, -1)).toThrow(RangeError);
    expect(() => applyPpm(100, 1_000_001)).toThrow(RangeError);
    expect(() => applyPpm(100, 0.5)).toThrow(TypeError);
  });
});

describe('assertCents guards every money input', () => {
  it('accepts safe integers only', () => {
    expect(() => assertCents(0, 'x')).not.toThrow();
    expect(() => assertCents(-5, 'x')).not.toThrow();
    expect(() => assertCents(NaN, 'x')).toThrow(/x must be/);
    expect(() => assertCents('5', 'x')).toThrow(TypeError);
    expect(() => assertCents(Infinity, 'x')).toThrow(TypeError);
    expect(() => assertNonNegativeCents(-1, 'x')).toThrow(RangeError);
  });
});

describe('divRoundHalfUp', () => {
  it('rounds the quotient half up', () => {
    expect(divRoundHalfUp(5, 2)).toBe(3);
    expect(divRoundHalfUp(7, 3)).toBe(2);
    expect(divRoundHalfUp(0, 3)).toBe(0);
    expect(() => divRoundHalfUp(1, 0)).toThrow(RangeError);
  });
});

describe('formatUsd uses en-US currency formatting', () => {
  it('formats cents as dollars with grouping', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(123_456)).toBe('$1,234.56');
    expect(formatUsd(5_000_000)).toBe('$50,000.00');
    expect(formatUsd(-150)).toBe('-$1.50');
  });
  it('keeps the last digit exact for the largest safe amount', () => {
    expect(formatUsd(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
  });
  it('refuses fractional cents', () => {
    expect(() => formatUsd(1.5)).toThrow(TypeError);
  });
});

describe('centsToInputString', () => {
  it('gives the plain two-decimal form', () => {
    expect(centsToInputString(1250)).toBe('12.50');
    expect(centsToInputString(0)).toBe('0.00');
    expect(centsToInputString(7)).toBe('0.07');
  });
  it('round-trips through parseMoneyInput', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
      expect(parseMoneyInput(centsToInputString(cents))).toEqual({ ok: true, cents });
    }));
  });
});

describe('formatPpmAsPercent', () => {
  it('shows rates without float noise', () => {
    expect(formatPpmAsPercent(10_000)).toBe('1%');
    expect(formatPpmAsPercent(5_000)).toBe('0.5%');
    expect(formatPpmAsPercent(2_500)).toBe('0.25%');
    expect(formatPpmAsPercent(1_250)).toBe('0.125%');
    expect(formatPpmAsPercent(29_000)).toBe('2.9%');
    expect(formatPpmAsPercent(0)).toBe('0%');
  });
});

describe('parseMoneyInput: digits with an optional decimal point, at most 2 decimals', () => {
  it.each([
    ['12', 1200], ['12.5', 1250], ['12.50', 1250], ['12.', 1200], ['.5', 50], ['0.01', 1],
    [' 7.25 ', 725], ['0', 0], ['007.10', 710], ['50000', 5_000_000],
  ])('accepts %j as %i cents', (text, cents) => {
    expect(parseMoneyInput(text)).toEqual({ ok: true, cents });
  });
  it.each([['', 'empty'], ['   ', 'empty']])('reports %j as empty', (text, reason) => {
    expect(parseMoneyInput(text)).toEqual({ ok: false, reason });
  });
  it.each(['-5', '+5', '1,000', '1e3', 'abc', '12.3.4', '.', '$5', '5 0', '١٢', 'Infinity', '0x10'])(
    'refuses %j as not numeric',
    (text) => {
      expect(parseMoneyInput(text)).toEqual({ ok: false, reason: 'not_numeric' });
    },
  );
  it('refuses more than two decimals, even trailing zeros', () => {
    expect(parseMoneyInput('1.234')).toEqual({ ok: false, reason: 'too_many_decimals' });
    expect(parseMoneyInput('1.500')).toEqual({ ok: false, reason: 'too_many_decimals' });
  });
  it('refuses amounts that cannot be a safe number of cents', () => {
    expect(parseMoneyInput('90071992547409.92')).toEqual({ ok: false, reason: 'too_large' });
    expect(parseMoneyInput('9'.repeat(10_000))).toEqual({ ok: false, reason: 'too_large' });
    expect(parseMoneyInput('90071992547409.91')).toEqual({ ok: true, cents: Number.MAX_SAFE_INTEGER });
  });
});

describe('money constants', () => {
  it('has the docs/rules.md#max-card-amount messages and maximum', () => {
    expect(MAX_CARD_AMOUNT_CENTS).toBe(5_000_000);
    expect(MESSAGES.tooManyDecimals).toBe('Amounts can have at most 2 decimal places.');
    expect(MESSAGES.maxCardAmount).toBe('The maximum card amount is $50,000.00.');
  });
});
