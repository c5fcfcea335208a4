import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_NUMBER_MASK, containsCardNumber, scrubCardNumbers, scrubCardNumbersDeep } from './card-scrubber';
import { luhnCheckDigit, luhnValid } from './cards';

const M = CARD_NUMBER_MASK;

/** A Luhn-valid number of 13-19 digits. */
const cardNumber = fc
  .integer({ min: 13, max: 19 })
  .chain((length) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }))
  .map((digits) => {
    const partial = digits.join('');
    return partial + String(luhnCheckDigit(partial));
  });

/** The number as a person might type it: in one piece, or in groups joined by spaces or dashes. */
const typed = fc.tuple(cardNumber, fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }), fc.constantFrom(' ', '-', ' - ', '  ', '\u00a0', '\t', '–', '')).map(([number, sizes, separator]) => {
  const groups: string[] = [];
  let at = 0;
  for (let i = 0; at < number.length; i += 1) {
    const size = sizes[i % sizes.length]!;
    groups.push(number.slice(at, at + size));
    at += size;
  }
  return { number, text: groups.join(separator) };
});

/** Text around it that holds no digit (so any digit left in the output came from the number). */
const words = fc.string({ unit: fc.constantFrom(...'abcdefghij XYZ.,:;!?é€\n'.split('')), maxLength: 30 });

describe('scrubCardNumbers', () => {
  it('removes Luhn-valid card numbers however they are grouped, and keeps every other number', () => {
    expect(scrubCardNumbers('card 4242424242424242 declined')).toBe(`card ${M} declined`);
    expect(scrubCardNumbers('5555-5555-5555-4444 and 4111 1111 1111 1111')).toBe(`${M} and ${M}`);
    expect(scrubCardNumbers('order 1234567890123456, phone 555 123 4567, cvv 123')).toBe('order 1234567890123456, phone 555 123 4567, cvv 123');
    expect(scrubCardNumbers('')).toBe('');
  });

  it('digits written next to a card number do not hide it (the attack on the old filter)', () => {
    expect(scrubCardNumbers('order 1234 4242 4242 4242 4242 thanks')).toBe(`order 1234 ${M} thanks`);
    expect(scrubCardNumbers('4242 4242 4242 4242 12/29 cvc 123')).toBe(`${M} 12/29 cvc 123`);
    expect(scrubCardNumbers('ref 99 - 4111-1111-1111-1111 - 7')).toBe(`ref 99 - ${M} - 7`);
  });

  it('finds 13- and 19-digit numbers, odd groupings, Unicode spaces and dashes, fullwidth digits', () => {
    expect(scrubCardNumbers('old visa 4222222222222')).toBe(`old visa ${M}`);
    expect(luhnValid('6011000990139424')).toBe(true);
    expect(scrubCardNumbers('6011 0009 9013 9424')).toBe(M);
    expect(scrubCardNumbers('3782 822463 10005 (amex)')).toBe(`${M} (amex)`);
    expect(scrubCardNumbers('4242\u00a04242\u202f4242 4242')).toBe(M);
    expect(scrubCardNumbers('4242–4242—4242−4242')).toBe(M);
    expect(scrubCardNumbers('４２４２４２４２４２４２４２４２')).toBe(M);
  });

  it('leaves numbers that are not cards: too short, too long in one piece, or failing Luhn', () => {
    for (const text of ['4242 4242 4242', '424242424242424242424242', '4242 4242 4242 4241', 'call 0800 123 456 7', '2026-01-02 12:30']) {
      expect(scrubCardNumbers(text), text).toBe(text);
    }
  });

  it('property: a card number typed in any grouping, inside any text, leaves no trace of its digits', () => {
    fc.assert(
      fc.property(words, typed, words, (before, { number, text }, after) => {
        const scrubbed = scrubCardNumbers(`${before} ${text} ${after}`);
        expect(scrubbed.replace(/\D/g, '')).toBe('');
        expect(scrubbed).toContain(M);
        expect(scrubbed).not.toContain(number);
      }),
      { numRuns: 500 },
    );
  });

  it('property: other digit groups beside the number do not shield it', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^\d{1,4}$/), { maxLength: 3 }), typed, fc.array(fc.stringMatching(/^\d{1,4}$/), { maxLength: 3 }), (before, { number }, after) => {
        const grouped = number.replace(/(\d{4})(?=\d)/g, '$1 ');
        const scrubbed = scrubCardNumbers([...before, grouped, ...after].join(' '));
        expect(scrubbed.replace(/\D/g, '')).not.toContain(number);
        expect(scrubbed).toContain(M);
      }),
      { numRuns: 500 },
    );
  });

  it('property: scrubbing is idempotent, and text with no card number comes back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const once = scrubCardNumbers(text);
        expect(scrubCardNumbers(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
    // At most 12 digits in any stretch: nothing can be a card number.
    const shortDigits = fc.array(fc.oneof(words.filter((w) => /[a-z]/i.test(w)), fc.stringMatching(/^\d{1,12}$/)), { maxLength: 10 }).map((parts) => parts.join('x'));
    fc.assert(
      fc.property(shortDigits, (text) => {
        expect(scrubCardNumbers(text)).toBe(text);
        expect(containsCardNumber(text)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('scrubCardNumbersDeep', () => {
  it('scrubs every string of a body except the fields that hold a card number or a secret on purpose', () => {
    const body = { name: 'Ada 4242 4242 4242 4242', nested: { notes: ['fine', '5555555555554444'] }, cardNumber: '4242424242424242', amount: 12 };
    expect(scrubCardNumbersDeep(body, new Set(['cardNumber']))).toEqual({ name: `Ada ${M}`, nested: { notes: ['fine', M] }, cardNumber: '4242424242424242', amount: 12 });
    expect(body.name).toBe('Ada 4242 4242 4242 4242');
  });
});

describe('what is not a card number', () => {
  it('ids: a UUID or hex id whose digit groups happen to pass Luhn is left alone', () => {
    expect(scrubCardNumbers('user-72a8ab2e-7137-4843-8114-34d62dcf8c2f@example.com')).toBe('user-72a8ab2e-7137-4843-8114-34d62dcf8c2f@example.com');
    expect(scrubCardNumbers('card 12345678-1234-4234-8234-123456789012')).toBe('card 12345678-1234-4234-8234-123456789012');
  });

  it('property: any UUID, alone or in an address, comes back unchanged', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(scrubCardNumbers(uuid)).toBe(uuid);
        expect(scrubCardNumbers(`user-${uuid}@example.com`)).toBe(`user-${uuid}@example.com`);
      }),
      { numRuns: 2000 },
    );
  });
});
