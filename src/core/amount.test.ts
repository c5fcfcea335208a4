import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AMOUNT_MESSAGES, computeCombineTotal, RECOMMENDED_TAX_BUFFER_PERCENT } from './amount';
import type { BufferMode } from './amount';

const total = (baseInput: string, bufferInput: string, bufferMode: BufferMode = 'percent') =>
  computeCombineTotal({ baseInput, bufferInput, bufferMode });

describe('amount step: docs/rules.md#fee-examples worked totals', () => {
  it('base $500.00 with a 10% buffer → buffer $50.00, total $550.00', () => {
    expect(total('500.00', '10')).toEqual({ ok: true, baseCents: 50_000, taxBufferCents: 5_000, totalCents: 55_000 });
  });
  it('base $333.33 with a 7.5% buffer → buffer $25.00 (2 499.975 rounded half up), total $358.33', () => {
    expect(total('333.33', '7.5')).toEqual({ ok: true, baseCents: 33_333, taxBufferCents: 2_500, totalCents: 35_833 });
  });
  it('recommends a 10% buffer', () => {
    expect(RECOMMENDED_TAX_BUFFER_PERCENT).toBe(10);
  });
});

describe('amount step: buffer modes', () => {
  it('adds a dollar buffer as is', () => {
    expect(total('100', '12.34', 'dollars')).toEqual({ ok: true, baseCents: 10_000, taxBufferCents: 1_234, totalCents: 11_234 });
  });
  it('accepts a zero buffer in either mode', () => {
    expect(total('100', '0')).toMatchObject({ ok: true, totalCents: 10_000 });
    expect(total('100', '0', 'dollars')).toMatchObject({ ok: true, totalCents: 10_000 });
  });
  it('rounds a percent buffer half up to the cent', () => {
    expect(total('0.05', '10')).toMatchObject({ ok: true, taxBufferCents: 1 }); // 0.5 cent → 1
    expect(total('0.04', '10')).toMatchObject({ ok: true, taxBufferCents: 0 });
  });
  it('allows a buffer above 100%', () => {
    expect(total('10', '150')).toMatchObject({ ok: true, taxBufferCents: 1_500, totalCents: 2_500 });
  });
  it('percent buffer equals round_half_up(base × percent / 100) for any input', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 0, max: 10_000 }), (baseCents, hundredths) => {
      const baseText = `${Math.floor(baseCents / 100)}.${String(baseCents % 100).padStart(2, '0')}`;
      const pctText = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
      const r = total(baseText, pctText);
      const exact = (BigInt(baseCents) * BigInt(hundredths) * 2n + 10_000n) / 20_000n;
      const expectedTotal = baseCents + Number(exact);
      if (expectedTotal > 5_000_000) {
        expect(r).toEqual({ ok: false, message: AMOUNT_MESSAGES.maxCardAmount });
      } else {
        expect(r).toEqual({ ok: true, baseCents, taxBufferCents: Number(exact), totalCents: expectedTotal });
      }
    }));
  });
});

describe('amount step: messages, exactly as the spec and DECISIONS give them', () => {
  it('has the exact texts', () => {
    expect(AMOUNT_MESSAGES).toEqual({
      notNumeric: 'Both fields must contain only numbers or a decimal point.',
      notPositive: 'Please enter a positive total and non-negative buffer.',
      tooManyDecimals: 'Amounts can have at most 2 decimal places.',
      maxCardAmount: 'The maximum card amount is $50,000.00.',
    });
  });
  it.each([['abc', '10'], ['100', '1,5'], ['-5', '10'], ['100', '-1'], ['1e3', '0'], ['$100', '10'], ['1.2.3', '0']])(
    'refuses characters other than digits and a point: %j / %j',
    (b, t) => {
      expect(total(b, t)).toEqual({ ok: false, message: AMOUNT_MESSAGES.notNumeric });
    },
  );
  it.each([['0', '10'], ['0.00', '0'], ['', '10'], ['100', ''], ['.', '10']])(
    'refuses a base that is not positive or a missing buffer: %j / %j',
    (b, t) => {
      expect(total(b, t)).toEqual({ ok: false, message: AMOUNT_MESSAGES.notPositive });
    },
  );
  it('refuses more than two decimals in either field', () => {
    expect(total('100.001', '10')).toEqual({ ok: false, message: AMOUNT_MESSAGES.tooManyDecimals });
    expect(total('100', '7.125')).toEqual({ ok: false, message: AMOUNT_MESSAGES.tooManyDecimals });
  });
  it('caps the card total at $50,000.00, buffer included', () => {
    expect(total('50000', '0')).toMatchObject({ ok: true, totalCents: 5_000_000 });
    expect(total('50000.01', '0')).toEqual({ ok: false, message: AMOUNT_MESSAGES.maxCardAmount });
    expect(total('45454.55', '10')).toEqual({ ok: false, message: AMOUNT_MESSAGES.maxCardAmount });
    expect(total('45454.54', '10')).toMatchObject({ ok: true, totalCents: 4_999_999 });
    expect(total('100', '99999999999999999999')).toEqual({ ok: false, message: AMOUNT_MESSAGES.maxCardAmount });
    expect(total('100', '49900.01', 'dollars')).toEqual({ ok: false, message: AMOUNT_MESSAGES.maxCardAmount });
  });
  it('ignores surrounding spaces', () => {
    expect(total(' 500 ', ' 10 ')).toMatchObject({ ok: true, totalCents: 55_000 });
  });
});
