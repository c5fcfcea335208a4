import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { PaymentModal, type PaymentChoice } from './PaymentModal';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';

// The upgrade's payment form (docs/rules.md#upgrades): messages per field, grouping as typed, one payment per form.

const choice: PaymentChoice = { plan: 'premium', cycle: 'monthly', listPriceCents: 999, discountPpm: 0, amountCents: 999 };
const config = { body: { demoMode: true, supportEmail: 'support@payweave.example', payAddress: 'pay.payweave.example' } };

describe('upgrade payment form', () => {
  it('names each missing field, groups the card number in fours, and sends one payment with the typed card', async () => {
    const onPaid = vi.fn();
    const api = fakeApi({
      'GET /api/config': config,
      'POST /api/subscription/upgrade': { status: 201, body: { message: 'Your account has been upgraded to Premium!' } },
    });
    const { user } = renderPage(<PaymentModal choice={choice} onClose={() => {}} onPaid={onPaid} />);
    expect(screen.getByTestId('upgrade-due').textContent).toBe('$9.99');
    await user.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    await waitFor(() => expect(screen.getByLabelText(/^Name on card/)).toHaveAccessibleDescription(expect.stringContaining('Name on card is required')));
    expect(screen.getByLabelText(/^Card number/)).toHaveAccessibleDescription(expect.stringContaining('Card number is required'));
    expect(screen.getByLabelText(/^Expiry month/)).toHaveAccessibleDescription(expect.stringContaining('Expiry month is required'));
    expect(screen.getByLabelText(/^CVV/)).toHaveAccessibleDescription(expect.stringContaining('CVV is required'));
    expect(api.bodiesOf('POST', '/api/subscription/upgrade')).toEqual([]);

    await fill(user, screen.getByLabelText(/^Name on card/), 'Ada Lovelace');
    // Grouped as typed: the first group and one digit more by key, the rest (past the limit) pasted.
    await user.type(screen.getByLabelText(/^Card number/), '41111');
    expect((screen.getByLabelText(/^Card number/) as HTMLInputElement).value).toBe('4111 1');
    await user.paste('111111111112222');
    expect((screen.getByLabelText(/^Card number/) as HTMLInputElement).value).toBe('4111 1111 1111 1111');
    await user.selectOptions(screen.getByLabelText(/^Expiry month/), '12');
    await user.selectOptions(screen.getByLabelText(/^Expiry year/), String(new Date().getFullYear() + 2));
    // Digits only, as typed.
    await user.type(screen.getByLabelText(/^CVV/), '12a3');
    expect((screen.getByLabelText(/^CVV/) as HTMLInputElement).value).toBe('123');
    await user.click(screen.getByRole('button', { name: 'Pay $9.99' }));

    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const [sent] = api.sent.filter((r) => r.path === '/api/subscription/upgrade');
    expect(sent?.body).toEqual({
      plan: 'premium',
      billingCycle: 'monthly',
      card: { name: 'Ada Lovelace', number: '4111 1111 1111 1111', expMonth: 12, expYear: new Date().getFullYear() + 2, cvv: '123' },
    });
    expect(sent?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a refusal is said as the server words it; a failure on our side gives the spec message and a reference', async () => {
    let answer = { status: 402, body: { error: { code: 'card_declined', message: 'The card was declined.' } } };
    fakeApi({ 'GET /api/config': config, 'POST /api/subscription/upgrade': () => answer });
    const { user } = renderPage(<PaymentModal choice={choice} onClose={() => {}} onPaid={() => {}} />);
    await fill(user, screen.getByLabelText(/^Name on card/), 'Ada Lovelace');
    await fill(user, screen.getByLabelText(/^Card number/), '4111111111111111');
    await user.selectOptions(screen.getByLabelText(/^Expiry month/), '12');
    await user.selectOptions(screen.getByLabelText(/^Expiry year/), String(new Date().getFullYear() + 2));
    await user.type(screen.getByLabelText(/^CVV/), '123');
    await user.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    expect(await screen.findByText('The card was declined.')).toBeVisible();
    answer = { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' } } };
    await user.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    expect(await screen.findByText(/Failed to upgrade account\. Something went wrong on our side\. Please try again\. Reference: REQTEST0\./)).toBeVisible();
  });
});
