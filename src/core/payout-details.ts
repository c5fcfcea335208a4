// What a payout method needs to know where the money goes (issue 22): an ACH bank account, a
// PayPal e-mail, a Cash App $cashtag. Asked the first time a method is used; only what a user
// needs to recognise it is kept (an account number keeps its last 4 digits). The whole of it goes
// once to the payout provider, which answers an opaque destination reference (decision 168).

import type { PayoutMethod } from './plans';

export const PAYOUT_DETAIL_FIELDS: Readonly<Record<PayoutMethod, { label: string; hint: string; inputMode: 'numeric' | 'email' | 'text'; autoComplete: string }>> = {
  ach: { label: 'Bank account number', hint: 'We keep only the last 4 digits to show you where the money goes.', inputMode: 'numeric', autoComplete: 'off' },
  paypal: { label: 'PayPal e-mail', hint: 'The e-mail address of your PayPal account.', inputMode: 'email', autoComplete: 'email' },
  cashapp: { label: 'Cash App $cashtag', hint: 'For example $alex.', inputMode: 'text', autoComplete: 'off' },
};

export const PAYOUT_DETAIL_MESSAGES: Readonly<Record<PayoutMethod, string>> = {
  ach: 'Enter the bank account number (4 to 17 digits).',
  paypal: 'Enter the e-mail address of your PayPal account.',
  cashapp: 'Enter your $cashtag, for example $alex.',
};

export type PayoutDetailResult =
  | {
      ok: true;
      /** What is kept and shown: "•••• 6789", the e-mail, or the $cashtag. */
      stored: string;
      /** Where the money goes in full, for the payout provider's registration only: never stored or logged. */
      payTo: string;
    }
  | { ok: false; message: string };

/** Checks what the user typed and returns what is kept, and what the payout provider is given. */
export function payoutDetail(method: PayoutMethod, input: string): PayoutDetailResult {
  const text = input.trim();
  if (method === 'ach') {
    const digits = text.replace(/[\s-]/g, '');
    return /^\d{4,17}$/.test(digits) ? { ok: true, stored: `•••• ${digits.slice(-4)}`, payTo: digits } : { ok: false, message: PAYOUT_DETAIL_MESSAGES.ach };
  }
  if (method === 'paypal') {
    return text.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? { ok: true, stored: text.toLowerCase(), payTo: text.toLowerCase() } : { ok: false, message: PAYOUT_DETAIL_MESSAGES.paypal };
  }
  const tag = text.startsWith('$') ? text : `$${text}`;
  return /^\$[A-Za-z][A-Za-z0-9_]{0,19}$/.test(tag) ? { ok: true, stored: tag, payTo: tag } : { ok: false, message: PAYOUT_DETAIL_MESSAGES.cashapp };
}
