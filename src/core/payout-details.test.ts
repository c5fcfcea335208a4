import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PAYOUT_DETAIL_MESSAGES, ROUTING_NUMBER_MESSAGES, payoutDetail, routingNumberProblem } from './payout-details';

const ROUTING = '011000015';

describe('payout method details (asked on first use)', () => {
  it('ACH: the routing number and the account; only the last 4 digits are kept, the provider is given both in full once', () => {
    expect(payoutDetail('ach', { routingNumber: ROUTING, detail: '0001 2345 6789' })).toEqual({
      ok: true,
      stored: '•••• 6789',
      payTo: { method: 'ach', routingNumber: '011000015', accountNumber: '000123456789' },
    });
    expect(payoutDetail('ach', { routingNumber: ' 0210-0002-1 ', detail: '0001-2345' })).toEqual({
      ok: true,
      stored: '•••• 2345',
      payTo: { method: 'ach', routingNumber: '021000021', accountNumber: '00012345' },
    });
  });

  it('ACH: a wrong account number, a missing, short or wrong routing number: each field says what is wrong, the routing number first', () => {
    const account = { ok: false, message: PAYOUT_DETAIL_MESSAGES.ach, errors: { detail: PAYOUT_DETAIL_MESSAGES.ach } };
    expect(payoutDetail('ach', { routingNumber: ROUTING, detail: '12' })).toEqual(account);
    expect(payoutDetail('ach', { routingNumber: ROUTING, detail: '12345678901234567890' })).toEqual(account);
    expect(payoutDetail('ach', { routingNumber: ROUTING })).toEqual(account);
    expect(payoutDetail('ach', { detail: '000123456789' })).toEqual({ ok: false, message: ROUTING_NUMBER_MESSAGES.missing, errors: { routingNumber: ROUTING_NUMBER_MESSAGES.missing } });
    expect(payoutDetail('ach', { routingNumber: '01100001', detail: '000123456789' })).toMatchObject({ ok: false, message: ROUTING_NUMBER_MESSAGES.missing });
    expect(payoutDetail('ach', { routingNumber: '011000016', detail: '000123456789' })).toMatchObject({ ok: false, message: ROUTING_NUMBER_MESSAGES.invalid });
    expect(payoutDetail('ach', { routingNumber: '12345678', detail: '12' })).toEqual({
      ok: false,
      message: ROUTING_NUMBER_MESSAGES.missing,
      errors: { routingNumber: ROUTING_NUMBER_MESSAGES.missing, detail: PAYOUT_DETAIL_MESSAGES.ach },
    });
  });

  it('takes a PayPal e-mail and a Cash App $cashtag, and no routing number with them', () => {
    expect(payoutDetail('paypal', { detail: ' Ada@Example.com ' })).toEqual({ ok: true, stored: 'ada@example.com', payTo: { method: 'paypal', email: 'ada@example.com' } });
    expect(payoutDetail('paypal', { detail: 'ada@' })).toEqual({ ok: false, message: PAYOUT_DETAIL_MESSAGES.paypal, errors: { detail: PAYOUT_DETAIL_MESSAGES.paypal } });
    expect(payoutDetail('cashapp', { detail: 'alex_1' })).toEqual({ ok: true, stored: '$alex_1', payTo: { method: 'cashapp', cashtag: '$alex_1' } });
    expect(payoutDetail('cashapp', { detail: '$1alex' })).toEqual({ ok: false, message: PAYOUT_DETAIL_MESSAGES.cashapp, errors: { detail: PAYOUT_DETAIL_MESSAGES.cashapp } });
    expect(payoutDetail('paypal', { detail: 'ada@example.com', routingNumber: ROUTING })).toEqual({ ok: false, message: ROUTING_NUMBER_MESSAGES.notAch, errors: { routingNumber: ROUTING_NUMBER_MESSAGES.notAch } });
    expect(payoutDetail('cashapp', { detail: '$ada', routingNumber: '' })).toMatchObject({ ok: false, message: ROUTING_NUMBER_MESSAGES.notAch });
  });
});

describe('ABA routing numbers (decision 171)', () => {
  it('takes real ones, with spaces and dashes, and refuses a wrong length, letters, a wrong check digit and all zeros', () => {
    // Published routing numbers of banks (one of them a Federal Reserve Bank's) and a payment provider's test number.
    for (const routing of ['011000015', '021000021', '0210 0002 1', '121-000-358', '256074974', '110000000']) expect(routingNumberProblem(routing), routing).toBeNull();
    for (const routing of ['', '01100001', '0110000150', '01100001a', '011 000 01']) expect(routingNumberProblem(routing), routing).toBe(ROUTING_NUMBER_MESSAGES.missing);
    for (const routing of ['011000016', '021000012', '123456789', '000000000']) expect(routingNumberProblem(routing), routing).toBe(ROUTING_NUMBER_MESSAGES.invalid);
  });

  it('one digit changed is always caught, and two neighbours swapped unless they differ by 5', () => {
    const valid = fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: 8, maxLength: 8 })
      .map((d) => {
        // The 9th digit that makes the checksum 0 mod 10 (its weight is 1).
        const partial = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]!) + (d[2]! + d[5]!) + 7 * d[7]!;
        return [...d, (10 - (partial % 10)) % 10];
      })
      .filter((d) => d.some((digit) => digit !== 0));
    fc.assert(
      fc.property(valid, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (digits, at, by) => {
        expect(routingNumberProblem(digits.join(''))).toBeNull();
        const changed = digits.map((digit, i) => (i === at ? (digit + by) % 10 : digit));
        expect(routingNumberProblem(changed.join(''))).toBe(ROUTING_NUMBER_MESSAGES.invalid);
        if (at < 8 && digits[at] !== digits[at + 1] && (digits[at]! - digits[at + 1]!) % 5 !== 0) {
          const swapped = [...digits];
          [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
          expect(routingNumberProblem(swapped.join(''))).toBe(ROUTING_NUMBER_MESSAGES.invalid);
        }
      }),
    );
  });
});
