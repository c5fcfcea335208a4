// What a payout method needs to know where the money goes: an ACH bank account (its
// bank's routing number and the account number, decision 171), a PayPal e-mail, a Cash App
// $cashtag. Asked the first time a method is used; only what a user needs to recognise it is kept
// (an account number keeps its last 4 digits). The whole of it goes once to the payout provider,
// which answers an opaque destination reference (decision 168).

import type { PayoutMethod } from './plans';

export type PayoutDetailFieldSpec = { label: string; hint: string; inputMode: 'numeric' | 'email' | 'text'; autoComplete: string };

/** The one field each method asks for (for ACH, the account number; its routing number is ROUTING_NUMBER_FIELD). */
export const PAYOUT_DETAIL_FIELDS: Readonly<Record<PayoutMethod, PayoutDetailFieldSpec>> = {
  ach: { label: 'Bank account number', hint: 'We keep only the last 4 digits to show you where the money goes.', inputMode: 'numeric', autoComplete: 'off' },
  paypal: { label: 'PayPal e-mail', hint: 'The e-mail address of your PayPal account.', inputMode: 'email', autoComplete: 'email' },
  cashapp: { label: 'Cash App $cashtag', hint: 'For example $alex.', inputMode: 'text', autoComplete: 'off' },
};

/** ACH only, asked before the account number, as every US bank form does (decision 171). */
export const ROUTING_NUMBER_FIELD: PayoutDetailFieldSpec = {
  label: 'Routing number',
  hint: "Your bank's 9-digit ABA routing number: the first 9 digits at the bottom of a check, or in your bank's app.",
  inputMode: 'numeric',
  autoComplete: 'off',
};

export const PAYOUT_DETAIL_MESSAGES: Readonly<Record<PayoutMethod, string>> = {
  ach: 'Enter the bank account number (4 to 17 digits).',
  paypal: 'Enter the e-mail address of your PayPal account.',
  cashapp: 'Enter your $cashtag, for example $alex.',
};

export const ROUTING_NUMBER_MESSAGES = {
  missing: 'Enter the 9-digit routing number of your bank.',
  invalid: 'That routing number is not valid: check its 9 digits.',
  /** An API client sending a routing number with PayPal or Cash App. */
  notAch: 'Only an ACH bank account has a routing number: PayPal and Cash App take none.',
} as const;

/** What the user typed: `detail` (the account number, the e-mail, the $cashtag) and, for ACH, the routing number. */
export type PayoutDetailInput = { detail?: string; routingNumber?: string };
export type PayoutDetailField = keyof PayoutDetailInput;

/** Where the money goes in full, as the payout provider needs it to register a destination. */
export type PayTo =
  | { method: 'ach'; routingNumber: string; accountNumber: string }
  | { method: 'paypal'; email: string }
  | { method: 'cashapp'; cashtag: string };

export type PayoutDetailResult =
  | {
      ok: true;
      /** What is kept and shown: "•••• 6789" (the account's last 4; not the routing number, decision 171), the e-mail, or the $cashtag. */
      stored: string;
      /** Where the money goes in full, for the payout provider's registration only: never stored or logged. */
      payTo: PayTo;
    }
  | {
      ok: false;
      /** The first problem, in the form's order (the routing number comes first). */
      message: string;
      /** Each field's problem, so a form shows every one beside its field. */
      errors: Partial<Record<PayoutDetailField, string>>;
    };

/**
 * Why an ABA routing number is not one; null when it is. Exactly 9 digits (spaces and dashes
 * ignored), not all zeros, and the ABA checksum: 3×(d1+d4+d7) + 7×(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10.
 */
export function routingNumberProblem(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  if (!/^\d{9}$/.test(digits)) return ROUTING_NUMBER_MESSAGES.missing;
  const d = [...digits].map(Number) as [number, number, number, number, number, number, number, number, number];
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 && digits !== '000000000' ? null : ROUTING_NUMBER_MESSAGES.invalid;
}

function refused(errors: Partial<Record<PayoutDetailField, string>>): PayoutDetailResult {
  const message = errors.routingNumber ?? errors.detail ?? '';
  return { ok: false, message, errors };
}

/** Checks what the user typed and returns what is kept, and what the payout provider is given. */
export function payoutDetail(method: PayoutMethod, input: PayoutDetailInput): PayoutDetailResult {
  const text = (input.detail ?? '').trim();
  if (method === 'ach') {
    const routing = (input.routingNumber ?? '').replace(/[\s-]/g, '');
    const account = text.replace(/[\s-]/g, '');
    const errors: Partial<Record<PayoutDetailField, string>> = {};
    const routingProblem = routingNumberProblem(routing);
    if (routingProblem) errors.routingNumber = routingProblem;
    if (!/^\d{4,17}$/.test(account)) errors.detail = PAYOUT_DETAIL_MESSAGES.ach;
    if (errors.routingNumber || errors.detail) return refused(errors);
    return { ok: true, stored: `•••• ${account.slice(-4)}`, payTo: { method: 'ach', routingNumber: routing, accountNumber: account } };
  }
  // PayPal and Cash App are one field each; a routing number is a mistake, said rather than dropped.
  const errors: Partial<Record<PayoutDetailField, string>> = input.routingNumber === undefined ? {} : { routingNumber: ROUTING_NUMBER_MESSAGES.notAch };
  if (method === 'paypal') {
    const email = text.toLowerCase();
    if (!(text.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text))) errors.detail = PAYOUT_DETAIL_MESSAGES.paypal;
    return errors.routingNumber || errors.detail ? refused(errors) : { ok: true, stored: email, payTo: { method: 'paypal', email } };
  }
  const tag = text.startsWith('$') ? text : `$${text}`;
  if (!/^\$[A-Za-z][A-Za-z0-9_]{0,19}$/.test(tag)) errors.detail = PAYOUT_DETAIL_MESSAGES.cashapp;
  return errors.routingNumber || errors.detail ? refused(errors) : { ok: true, stored: tag, payTo: { method: 'cashapp', cashtag: tag } };
}
