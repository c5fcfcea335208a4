import { describe, expect, it } from 'vitest';
import { PAYOUT_DETAIL_MESSAGES, payoutDetail } from './payout-details';

describe('payout method details (issue 22: asked on first use)', () => {
  it('keeps only the last 4 digits of a bank account; the provider is given the whole number once', () => {
    expect(payoutDetail('ach', '0001 2345 6789')).toEqual({ ok: true, stored: '•••• 6789', payTo: '000123456789' });
    expect(payoutDetail('ach', '0001-2345')).toEqual({ ok: true, stored: '•••• 2345', payTo: '00012345' });
    expect(payoutDetail('ach', '12')).toEqual({ ok: false, message: PAYOUT_DETAIL_MESSAGES.ach });
    expect(payoutDetail('ach', '12345678901234567890')).toEqual({ ok: false, message: PAYOUT_DETAIL_MESSAGES.ach });
  });
  it('takes a PayPal e-mail and a Cash App $cashtag', () => {
    expect(payoutDetail('paypal', ' Ada@Example.com ')).toEqual({ ok: true, stored: 'ada@example.com', payTo: 'ada@example.com' });
    expect(payoutDetail('paypal', 'ada@')).toEqual({ ok: false, message: PAYOUT_DETAIL_MESSAGES.paypal });
    expect(payoutDetail('cashapp', 'alex_1')).toEqual({ ok: true, stored: '$alex_1', payTo: '$alex_1' });
    expect(payoutDetail('cashapp', '$1alex')).toEqual({ ok: false, message: PAYOUT_DETAIL_MESSAGES.cashapp });
  });
});
