import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CARD_MESSAGES,
  CARD_VALIDITY,
  cardExpiresAt,
  checkBnplCardEntry,
  checkSourceForm,
  DECLINE_TEST_CARD,
  printedExpiry,
  detectBrand,
  expiryYearOptions,
  generateCardNumber,
  generateCvv,
  groupCardNumber,
  last4,
  luhnCheckDigit,
  luhnValid,
  maskCardNumber,
  normaliseCardNumber,
  validateBnplCardEntry,
  sourceCardProblem,
  validateSourceForm,
} from './cards';
import type { SourceFormInput } from './cards';

const now = new Date('2025-06-15T12:00:00Z');

describe('Luhn', () => {
  it('accepts well-known valid numbers', () => {
    for (const n of ['4242424242424242', '4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', DECLINE_TEST_CARD]) {
      expect(luhnValid(n)).toBe(true);
    }
  });
  it('rejects a changed digit, non-digits and too-short input', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242 4242 4242 4242')).toBe(false);
    expect(luhnValid('0')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });
  it('computes the check digit', () => {
    expect(luhnCheckDigit('424242424242424')).toBe(2);
    expect(luhnCheckDigit('7992739871')).toBe(3);
  });
});

describe('generateCardNumber: 16 digits, Visa 4 / Mastercard 51-55, Luhn-valid', () => {
  it('always yields a valid number of the right network', () => {
    fc.assert(fc.property(
      fc.constantFrom('visa' as const, 'mastercard' as const),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 16, maxLength: 16 }),
      (network, digits) => {
        let i = 0;
        const n = generateCardNumber(network, () => digits[i++ % digits.length] ?? 0);
        expect(n).toMatch(/^\d{16}$/);
        expect(luhnValid(n)).toBe(true);
        if (network === 'visa') expect(n).toMatch(/^4/);
        else expect(n).toMatch(/^5[1-5]/);
        expect(detectBrand(n)).toBe(network);
      },
    ));
  });
  it('refuses a random source that does not return a digit', () => {
    expect(() => generateCardNumber('visa', () => 10)).toThrow(RangeError);
    expect(() => generateCardNumber('visa', () => 0.5)).toThrow(RangeError);
  });
  it('makes 3-digit CVVs', () => {
    expect(generateCvv(() => 7)).toBe('777');
  });
});

describe('detectBrand', () => {
  it.each([
    ['4242424242424242', 'visa'], ['5105105105105100', 'mastercard'], ['2221000000000009', 'mastercard'],
    ['2720999999999996', 'mastercard'], ['378282246310005', 'amex'], ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'], ['5600000000000000', null], ['2220999999999999', null], ['1234', null],
    ['4242 4242 4242 4242', 'visa'], ['abcd', null],
  ])('%s → %s', (n, brand) => {
    expect(detectBrand(n)).toBe(brand);
  });
});

describe('masking and normalising', () => {
  it('masks to the last 4', () => {
    expect(maskCardNumber('1234')).toBe('•••• •••• •••• 1234');
    expect(() => maskCardNumber('123')).toThrow(TypeError);
  });
  it('takes the last 4 and strips spaces and dashes', () => {
    expect(last4('4242-4242-4242-4242')).toBe('4242');
    expect(normaliseCardNumber(' 4242 4242-4242 4242 ')).toBe('4242424242424242');
    expect(groupCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('4242 42')).toBe('4242 42');
  });
  it('keeps the decline test card of docs/rules.md#demo-declines', () => {
    expect(DECLINE_TEST_CARD).toBe('4000000000009995');
  });
});

describe('card validity (docs/rules.md#cards, docs/rules.md#card-types)', () => {
  it('is 12 months general, 30 days single-use, and the printed MM/YY is the validity end', () => {
    expect(CARD_VALIDITY).toEqual({ generalMonths: 12, singleUseDays: 30 });
    const issued = new Date('2025-01-31T10:00:00Z');
    expect(cardExpiresAt('general', issued).toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(cardExpiresAt('single-use', issued).toISOString()).toBe('2025-03-02T10:00:00.000Z');
    expect(printedExpiry(cardExpiresAt('general', issued))).toEqual({ expiryMonth: '01', expiryYear: '26' });
    expect(printedExpiry(cardExpiresAt('single-use', issued))).toEqual({ expiryMonth: '03', expiryYear: '25' });
  });
  it('offers this year and the next 9 as expiry years', () => {
    expect(expiryYearOptions(now)).toEqual([2025, 2026, 2027, 2028, 2029, 2030, 2031, 2032, 2033, 2034]);
  });
});

const validCard: SourceFormInput = {
  type: 'credit', provider: 'visa', amountInput: '100.00',
  cardNumber: '4242 4242 4242 4242', expiryMonth: '06', expiryYear: '2025', cvv: '123',
};

describe('add-source validation: docs/rules.md#source-validation messages in order', () => {
  it('has the exact texts', () => {
    expect(CARD_MESSAGES).toEqual({
      selectType: 'Please select a payment source type',
      selectProvider: 'Please select a provider',
      invalidAmount: 'Please enter a valid amount',
      invalidCardNumber: 'Please enter a valid card number',
      invalidExpiry: 'Please enter a valid expiry date',
      invalidCvv: 'Please enter a valid CVV',
      bnplInvalidCardNumber: 'Please enter a valid card number.',
      bnplInvalidExpiry: 'Please enter expiry as MM/YY.',
      bnplExpired: 'This card has expired.',
      bnplInvalidCvv: 'Please enter a valid CVV.',
    });
  });
  it('accepts a valid card source expiring this month', () => {
    expect(validateSourceForm(validCard, now)).toEqual({
      ok: true, type: 'credit', provider: 'visa', chargeCents: 10_000,
      card: { number: '4242424242424242', expiryMonth: 6, expiryYear: 2025, cvv: '123' },
    });
  });
  it('accepts a BNPL source without card fields', () => {
    expect(validateSourceForm({ ...validCard, type: 'bnpl', provider: 'klarna', cardNumber: '', expiryMonth: '', expiryYear: '', cvv: '' }, now))
      .toEqual({ ok: true, type: 'bnpl', provider: 'klarna', chargeCents: 10_000, card: null });
  });
  const fails = (over: Partial<SourceFormInput>) => validateSourceForm({ ...validCard, ...over }, now);
  it('asks for a type, then a provider that belongs to it', () => {
    expect(fails({ type: '' })).toEqual({ ok: false, message: 'Please select a payment source type' });
    expect(fails({ provider: '' })).toEqual({ ok: false, message: 'Please select a provider' });
    expect(fails({ provider: 'klarna' })).toEqual({ ok: false, message: 'Please select a provider' });
  });
  it('asks for an amount above 0', () => {
    for (const amountInput of ['', '0', '0.00', 'abc', '-5']) {
      expect(fails({ amountInput })).toEqual({ ok: false, message: 'Please enter a valid amount' });
    }
    expect(fails({ amountInput: '1.234' })).toEqual({ ok: false, message: 'Amounts can have at most 2 decimal places.' });
  });
  it('asks for a card number of at least 15 digits', () => {
    expect(fails({ cardNumber: '42424242424242' })).toEqual({ ok: false, message: 'Please enter a valid card number' });
    expect(fails({ cardNumber: '4242-4242-4242-42a' })).toEqual({ ok: false, message: 'Please enter a valid card number' });
    expect(fails({ provider: 'amex', cardNumber: '378282246310005' }).ok).toBe(true);
  });
  it('refuses a card network as provider when the number is another network’s (decision 162)', () => {
    expect(fails({ provider: 'visa', cardNumber: '5555 5555 5555 4444' })).toEqual({
      ok: false,
      message: 'This card number belongs to Mastercard, not Visa. Choose Mastercard as the provider, or check the number.',
    });
    expect(fails({ type: 'debit', provider: 'mastercard', cardNumber: '4242424242424242' })).toMatchObject({ ok: false, message: expect.stringContaining('This card number belongs to Visa, not Mastercard.') });
    expect(fails({ type: 'debit', provider: 'discover', cardNumber: '378282246310005' })).toMatchObject({ ok: false, message: expect.stringContaining('This card number belongs to Amex, not Discover.') });
    expect(fails({ provider: 'mastercard', cardNumber: '5555555555554444' }).ok).toBe(true);
    expect(fails({ provider: 'discover', cardNumber: '6011111111111117' }).ok).toBe(true);
  });
  it('lets PayWeave Prepaid run on any network, and a number of no known network pass', () => {
    expect(fails({ type: 'prepaid', provider: 'payweave_prepaid', cardNumber: '5555555555554444' }).ok).toBe(true);
    expect(fails({ type: 'prepaid', provider: 'payweave_prepaid', cardNumber: '4242424242424242' }).ok).toBe(true);
    expect(fails({ provider: 'visa', cardNumber: '9999999999999999' }).ok).toBe(true);
  });
  it('asks for a month and year, and refuses an expiry in the past', () => {
    expect(fails({ expiryMonth: '' })).toEqual({ ok: false, message: 'Please enter a valid expiry date' });
    expect(fails({ expiryYear: '' })).toEqual({ ok: false, message: 'Please enter a valid expiry date' });
    expect(fails({ expiryMonth: '13' })).toEqual({ ok: false, message: 'Please enter a valid expiry date' });
    expect(fails({ expiryMonth: '05' })).toEqual({ ok: false, message: 'Please enter a valid expiry date' });
    expect(fails({ expiryYear: '2024', expiryMonth: '12' })).toEqual({ ok: false, message: 'Please enter a valid expiry date' });
    expect(fails({ expiryMonth: '1', expiryYear: '2026' }).ok).toBe(true);
  });
  it('asks for a CVV of at least 3 digits', () => {
    expect(fails({ cvv: '12' })).toEqual({ ok: false, message: 'Please enter a valid CVV' });
    expect(fails({ cvv: 'abc' })).toEqual({ ok: false, message: 'Please enter a valid CVV' });
    expect(fails({ cvv: '1234' }).ok).toBe(true);
  });
});

describe('BNPL card entry validation (docs/rules.md#bnpl-steps)', () => {
  const entry = { cardNumber: '4111 1111 1111 11', expiry: '07/27', cvv: '123' };
  it('accepts 14 digits once spaces are removed', () => {
    expect(validateBnplCardEntry(entry, now)).toEqual({
      ok: true, number: '41111111111111', expiryMonth: 7, expiryYear: 2027, cvv: '123',
    });
  });
  it('refuses fewer than 14 digits', () => {
    expect(validateBnplCardEntry({ ...entry, cardNumber: '4111 1111 1111 1' }, now))
      .toEqual({ ok: false, message: 'Please enter a valid card number.' });
  });
  it('requires MM/YY', () => {
    for (const expiry of ['7/27', '07/2027', '13/27', '00/27', '0727', '']) {
      expect(validateBnplCardEntry({ ...entry, expiry }, now)).toEqual({ ok: false, message: 'Please enter expiry as MM/YY.' });
    }
  });
  it('says a well-formed MM/YY whose month has ended is an expired card, not a format mistake', () => {
    for (const expiry of ['05/25', '01/20', '12/24']) {
      expect(validateBnplCardEntry({ ...entry, expiry }, now)).toEqual({ ok: false, message: 'This card has expired.' });
    }
    // Usable through the last day of its month.
    expect(validateBnplCardEntry({ ...entry, expiry: '06/25' }, now).ok).toBe(true);
  });
  it('requires a CVV of 3-4 digits', () => {
    expect(validateBnplCardEntry({ ...entry, cvv: '12' }, now)).toEqual({ ok: false, message: 'Please enter a valid CVV.' });
  });
});

describe('checkSourceForm and checkBnplCardEntry: the field each refusal belongs to (forms mark it, the API names it)', () => {
  it('names the add-source field of the first problem, a number of another network being the provider’s', () => {
    const fieldOf = (over: Partial<SourceFormInput>) => {
      const checked = checkSourceForm({ ...validCard, ...over }, now);
      return checked.ok ? null : checked.field;
    };
    expect(fieldOf({})).toBeNull();
    expect(fieldOf({ type: '' })).toBe('type');
    expect(fieldOf({ provider: '' })).toBe('provider');
    expect(fieldOf({ amountInput: '1.234' })).toBe('amount');
    expect(fieldOf({ cardNumber: '4242' })).toBe('cardNumber');
    expect(fieldOf({ cardNumber: '5555 5555 5555 4444' })).toBe('provider');
    expect(fieldOf({ expiryYear: '' })).toBe('expiry');
    expect(fieldOf({ cvv: '1' })).toBe('cvv');
    expect(checkSourceForm({ ...validCard, cvv: '1' }, now)).toMatchObject(validateSourceForm({ ...validCard, cvv: '1' }, now));
  });
  it('names the BNPL card field of the first problem', () => {
    const entry = { cardNumber: '4111 1111 1111 11', expiry: '07/27', cvv: '123' };
    const fieldOf = (over: Partial<typeof entry>) => {
      const checked = checkBnplCardEntry({ ...entry, ...over }, now);
      return checked.ok ? null : checked.field;
    };
    expect(fieldOf({})).toBeNull();
    expect(fieldOf({ cardNumber: '4111' })).toBe('cardNumber');
    expect(fieldOf({ expiry: '7/27' })).toBe('expiry');
    expect(fieldOf({ expiry: '05/25' })).toBe('expiry');
    expect(fieldOf({ cvv: '12' })).toBe('cvv');
  });
});

describe('sourceCardProblem: the same card checks for numeric month and year (server requests)', () => {
  const card = { number: '4242424242424242', expiryMonth: 6, expiryYear: 2025, cvv: '123' };
  it('accepts a valid card and reports each problem with the spec text', () => {
    expect(sourceCardProblem(card, 'visa', now)).toBeNull();
    expect(sourceCardProblem({ ...card, number: '4242' }, 'visa', now)).toBe('Please enter a valid card number');
    expect(sourceCardProblem({ ...card, expiryMonth: 0 }, 'visa', now)).toBe('Please enter a valid expiry date');
    expect(sourceCardProblem({ ...card, expiryYear: 25 }, 'visa', now)).toBe('Please enter a valid expiry date');
    expect(sourceCardProblem({ ...card, expiryMonth: 5 }, 'visa', now)).toBe('Please enter a valid expiry date');
    expect(sourceCardProblem({ ...card, cvv: '12' }, 'visa', now)).toBe('Please enter a valid CVV');
    expect(sourceCardProblem(card, 'mastercard', now)).toContain('This card number belongs to Visa, not Mastercard.');
  });
});
