import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CashoutForm } from './CashoutForm';
import { savedWithOtherDetailsMessage } from './api/cashouts';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';
import { cardFixture, profileFixture } from '../../test/fixtures';

// The cash-out form (docs/rules.md#cashout-checks): nothing chosen for the user, the clamp said aloud,
// the payout account asked on first use, the fee of docs/rules.md#cashout-fee, one cash-out per confirmation.

const card = cardFixture({ remainingAmountCents: 50_000 });
const session = (profile = profileFixture()) => ({ body: { signedIn: true, profile } });

function cashoutAnswer(amountCents: number) {
  return {
    status: 201,
    body: {
      success: true,
      cashout: { id: 'co-1', type: 'cashout', cardId: card.id, cardLast4: '4321', amountCents, feeCents: 123, netAmountCents: amountCents - 123, payoutMethod: 'ach', status: 'success', createdAt: '2026-11-25T10:00:00.000Z', simulated: true, testSource: 'MVP-Demo', environment: 'test' },
      feeRatePpm: 10_000,
      card: { id: card.id, status: 'active', remainingAmountCents: 50_000 - amountCents, amountSpentCents: amountCents },
      payoutId: 'payout-1',
    },
  };
}

describe('cash-out form', () => {
  it('starts with no amount and no method, clamps a larger amount and says so, asks the bank account on first use, and saves it before cashing out', async () => {
    const api = fakeApi({
      'GET /api/session': session(),
      'POST /api/payout-methods': { status: 201, body: {} },
      'POST /api/cashouts': cashoutAnswer(12_345),
    });
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    const amount = screen.getByLabelText(/^Amount/) as HTMLInputElement;
    const method = screen.getByLabelText(/^Payout method/) as HTMLSelectElement;
    expect(amount.value).toBe('');
    await waitFor(() => expect(within(method).getAllByRole('option').map((o) => o.textContent)).toEqual(['Select a payout method', 'ACH']));
    expect(method.value).toBe('');

    // One change with a larger amount, as a paste or autofill would bring it.
    // (happy-dom does not apply a select's default value from its options; the browser test covers the preselection)
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    expect(screen.getByRole('button', { name: 'Whole balance ($500.00)' })).toBeVisible();
    fireEvent.change(amount, { target: { value: '999999' } });
    expect(amount.value).toBe('500.00');
    expect(screen.getByRole('status').textContent).toContain("Set to the card's balance, $500.00: you cannot cash out more than is on the card.");
    await user.clear(amount);
    await user.type(amount, '123.45');
    expect(screen.getByTestId('cashout-fee').textContent).toBe('$1.23');
    expect(screen.getByTestId('cashout-net').textContent).toBe('$122.22');

    // No method chosen: the spec's message.
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));
    expect(await screen.findByText('Please select a payout method')).toBeVisible();
    await user.selectOptions(method, 'ach');
    // First use of ACH: the bank's routing number and the account are asked for, and checked,
    // each field with its own message (decision 171).
    const routing = await screen.findByLabelText(/^Routing number/);
    const account = screen.getByLabelText(/^Bank account number/);
    for (const field of [routing, account]) {
      expect(field.getAttribute('inputmode')).toBe('numeric');
      expect(field.getAttribute('autocomplete')).toBe('off');
    }
    await fill(user, routing, '011000016');
    await user.type(account, '12');
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));
    await waitFor(() => expect(routing).toHaveAccessibleDescription(expect.stringContaining('That routing number is not valid: check its 9 digits.')));
    expect(account).toHaveAccessibleDescription(expect.stringContaining('Enter the bank account number (4 to 17 digits).'));
    expect(screen.getByText('That routing number is not valid: check its 9 digits.')).toBeVisible();
    expect(routing.getAttribute('aria-invalid')).toBe('true');
    expect(routing.getAttribute('aria-describedby')).toBe('payout-routing-number-hint payout-routing-number-error');
    expect(document.getElementById('payout-routing-number-error')?.textContent).toBe('That routing number is not valid: check its 9 digits.');
    expect(account.getAttribute('aria-describedby')).toBe('payout-detail-ach-hint payout-detail-ach-error');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Fixing one field clears its message only.
    await user.clear(routing);
    await fill(user, routing, '011000015');
    expect(screen.queryByText('That routing number is not valid: check its 9 digits.')).toBeNull();
    expect(routing.getAttribute('aria-invalid')).toBeNull();
    expect(account).toHaveAccessibleDescription(expect.stringContaining('Enter the bank account number (4 to 17 digits).'));
    expect(account).toHaveAttribute('aria-invalid', 'true');
    await user.clear(account);
    await fill(user, account, '000123456789');
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));

    const confirm = await screen.findByRole('dialog', { name: 'Confirm cash-out' });
    expect(confirm.textContent).toContain('Processing takes 1-3 business days.');
    // Where the money goes, as it will be kept: the account's last 4 digits.
    expect(confirm.textContent).toContain('to ACH (•••• 6789)?');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm Cash Out' }));
    expect(await screen.findByRole('dialog', { name: 'Card cashed out successfully!' })).toBeVisible();

    // The method was saved first, with the account and its routing number; then one cash-out with its key.
    expect(api.sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/payout-methods', '/api/cashouts']);
    expect(api.bodiesOf('POST', '/api/payout-methods')).toEqual([{ method: 'ach', detail: '000123456789', routingNumber: '011000015' }]);
    expect(api.bodiesOf('POST', '/api/cashouts')).toEqual([{ cardId: card.id, amountCents: 12_345, payoutMethod: 'ach' }]);
  });

  it('a double click on Confirm Cash Out saves the new method once and cashes out once', async () => {
    const api = fakeApi({
      'GET /api/session': session(),
      'POST /api/payout-methods': { status: 201, body: {} },
      'POST /api/cashouts': cashoutAnswer(10_000),
    });
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    await user.type(screen.getByLabelText(/^Amount/), '100');
    await user.selectOptions(screen.getByLabelText(/^Payout method/), 'ach');
    await fill(user, await screen.findByLabelText(/^Routing number/), '021000021');
    await fill(user, screen.getByLabelText(/^Bank account number/), '000123456789');
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));

    const confirm = await screen.findByRole('dialog', { name: 'Confirm cash-out' });
    const button = within(confirm).getByRole('button', { name: 'Confirm Cash Out' });
    // Two clicks faster than a re-render: the second must find the button still enabled.
    fireEvent.click(button);
    fireEvent.click(button);
    expect(await screen.findByRole('dialog', { name: 'Card cashed out successfully!' })).toBeVisible();

    expect(api.sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/payout-methods', '/api/cashouts']);
  });

  // Decision 168: the payout goes to the destination saved with the method. A method saved
  // meanwhile (another tab) with other details must not receive a cash-out meant for the account
  // entered here; with the same details (a save whose answer was lost) the cash-out goes ahead.
  describe('the method was saved meanwhile (409 already_added)', () => {
    const savedAs = (detail: string | null) => ({
      body: {
        methods: [{ method: 'ach', label: 'ACH', status: 'active', lastUsed: null, createdAt: '2026-11-27T10:00:00.000Z', preferred: true, allowedByPlan: true, detail }],
        preferredPayout: 'ach',
        allowedMethods: ['ach'],
        pendingRebates: { count: 0, amountCents: 0 },
      },
    });
    const confirmWithAccount = async (account: string) => {
      const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
      await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
      await user.type(screen.getByLabelText(/^Amount/), '100');
      await user.selectOptions(screen.getByLabelText(/^Payout method/), 'ach');
      await fill(user, await screen.findByLabelText(/^Routing number/), '021000021');
      await fill(user, screen.getByLabelText(/^Bank account number/), account);
      await user.click(screen.getByRole('button', { name: 'Cash Out' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Confirm cash-out' })).getByRole('button', { name: 'Confirm Cash Out' }));
    };
    const alreadyAdded = { status: 409, body: { error: { code: 'already_added', message: 'ACH is already added as a payout method' } } };

    it('with another account: nothing is cashed out, and the user is told', async () => {
      const api = fakeApi({
        'GET /api/session': session(),
        'POST /api/payout-methods': alreadyAdded,
        'GET /api/payout-methods': savedAs('•••• 2222'),
        'POST /api/cashouts': cashoutAnswer(10_000),
      });
      await confirmWithAccount('000123456789');
      expect(await screen.findByText(savedWithOtherDetailsMessage('ach', '•••• 2222'))).toBeVisible();
      expect(api.sent.some((r) => r.method === 'POST' && r.path === '/api/cashouts')).toBe(false);
    });

    it('with the account entered here: the cash-out goes ahead', async () => {
      const api = fakeApi({
        'GET /api/session': session(),
        'POST /api/payout-methods': alreadyAdded,
        'GET /api/payout-methods': savedAs('•••• 6789'),
        'POST /api/cashouts': cashoutAnswer(10_000),
      });
      await confirmWithAccount('000123456789');
      expect(await screen.findByRole('dialog', { name: 'Card cashed out successfully!' })).toBeVisible();
      expect(api.bodiesOf('POST', '/api/cashouts')).toHaveLength(1);
    });
  });

  it('a saved preferred method is chosen and its details are not asked again', async () => {
    fakeApi({ 'GET /api/session': session(profileFixture({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active', lastUsed: null, detail: '•••• 6789', needsDetails: false }] })) });
    renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await waitFor(() => expect((screen.getByLabelText(/^Payout method/) as HTMLSelectElement).value).toBe('ach'));
    expect(screen.queryByLabelText(/^Bank account number/)).toBeNull();
    expect(screen.queryByLabelText(/^Routing number/)).toBeNull();
  });

  it('PayPal, used the first time, asks for its e-mail only: no routing number is asked or sent', async () => {
    const api = fakeApi({
      'GET /api/session': session(profileFixture({ subscription: 'premium' })),
      'POST /api/payout-methods': { status: 201, body: {} },
      'POST /api/cashouts': cashoutAnswer(10_000),
    });
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    await user.type(screen.getByLabelText(/^Amount/), '100');
    await waitFor(() => expect(within(screen.getByLabelText(/^Payout method/)).getAllByRole('option').map((o) => o.textContent)).toContain('PayPal'));
    await user.selectOptions(screen.getByLabelText(/^Payout method/), 'paypal');
    await fill(user, await screen.findByLabelText(/^PayPal e-mail/), 'ada@example.com');
    expect(screen.queryByLabelText(/^Routing number/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm cash-out' })).getByRole('button', { name: 'Confirm Cash Out' }));
    expect(await screen.findByRole('dialog', { name: 'Card cashed out successfully!' })).toBeVisible();
    expect(api.bodiesOf('POST', '/api/payout-methods')).toEqual([{ method: 'paypal', detail: 'ada@example.com' }]);
  });
});

// Decision 172: a payout goes only to a destination the payout provider knows.
describe('a payout method without a registered destination', () => {
  const needsDetails = {
    status: 409,
    body: { error: { code: 'payout_method_needs_details', message: 'We need your ACH details again before we can pay to it. Enter them in Account Settings → Payout Methods, or on the cash-out form, then try again. Nothing was cashed out.' } },
  };
  const confirm = async (user: ReturnType<typeof renderPage>['user']) => {
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm cash-out' })).getByRole('button', { name: 'Confirm Cash Out' }));
  };

  it('the server refusing it: its message stays beside the method, with a link to Settings; the details entered, the retry saves them, then cashes out', async () => {
    // The profile said ACH had its details (saved in another tab without them, say); the server knows better.
    let cashouts = 0;
    const api = fakeApi({
      'GET /api/session': session(profileFixture({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active', lastUsed: null, detail: '•••• 6789', needsDetails: false }] })),
      'POST /api/payout-methods': { status: 200, body: {} },
      'POST /api/cashouts': () => (++cashouts === 1 ? needsDetails : cashoutAnswer(10_000)),
    });
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    await waitFor(() => expect((screen.getByLabelText(/^Payout method/) as HTMLSelectElement).value).toBe('ach'));
    await user.type(screen.getByLabelText(/^Amount/), '100');
    expect(screen.queryByLabelText(/^Routing number/)).toBeNull();
    await confirm(user);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(needsDetails.body.error.message);
    expect(within(alert).getByRole('link', { name: 'Go to Payout Methods' }).getAttribute('href')).toBe('/settings?tab=payout-methods');
    expect(screen.queryByRole('dialog')).toBeNull();
    // The fields are asked now, for the saved method, and the amount is kept for the retry.
    const routing = await screen.findByLabelText(/^Routing number/);
    expect(document.getElementById('payout-detail-ach-hint')?.textContent).toContain('We need your ACH details again before we can pay to it.');
    expect((screen.getByLabelText(/^Amount/) as HTMLInputElement).value).toBe('100');
    await fill(user, routing, '021000021');
    await fill(user, screen.getByLabelText(/^Bank account number/), '000123456789');
    await confirm(user);
    expect(await screen.findByRole('dialog', { name: 'Card cashed out successfully!' })).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();

    // Refused (nothing moved), then the details saved with the method, then the cash-out again, with a new key.
    expect(api.sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/cashouts', '/api/payout-methods', '/api/cashouts']);
    expect(api.bodiesOf('POST', '/api/payout-methods')).toEqual([{ method: 'ach', detail: '000123456789', routingNumber: '021000021' }]);
  });

  it('a saved method the profile marks: "details needed" in the list, the fields asked at once, saved before the cash-out', async () => {
    const api = fakeApi({
      'GET /api/session': session(profileFixture({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active', lastUsed: null, detail: '•••• 6789', needsDetails: true }] })),
      'POST /api/payout-methods': { status: 200, body: {} },
      'POST /api/cashouts': cashoutAnswer(10_000),
    });
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    await waitFor(() => expect((screen.getByLabelText(/^Payout method/) as HTMLSelectElement).value).toBe('ach'));
    expect(within(screen.getByLabelText(/^Payout method/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['Select a payout method', 'ACH (•••• 6789, details needed)']);
    await user.type(screen.getByLabelText(/^Amount/), '100');
    await fill(user, await screen.findByLabelText(/^Routing number/), '021000021');
    await fill(user, screen.getByLabelText(/^Bank account number/), '000111122');
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm cash-out' });
    // Where the money goes now: the account just entered.
    expect(dialog.textContent).toContain('to ACH (•••• 1122)?');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Cash Out' }));
    expect(await screen.findByRole('dialog', { name: 'Card cashed out successfully!' })).toBeVisible();
    expect(api.sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/payout-methods', '/api/cashouts']);
  });
});

describe('cash-out dialogs and focus', () => {
  it('after the confirmation and the success modal, Done puts focus back on the Cash Out button, not on the page body', async () => {
    fakeApi({
      'GET /api/session': session(profileFixture({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active', lastUsed: null, detail: '•••• 6789', needsDetails: false }] })),
      'POST /api/cashouts': cashoutAnswer(10_000),
    });
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    await waitFor(() => expect((screen.getByLabelText(/^Payout method/) as HTMLSelectElement).value).toBe('ach'));
    await user.type(screen.getByLabelText(/^Amount/), '100');
    // A saved method: its details, in the list and in the confirmation.
    expect(within(screen.getByLabelText(/^Payout method/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['Select a payout method', 'ACH (•••• 6789)']);
    const submit = screen.getByRole('button', { name: 'Cash Out' });
    await user.click(submit);

    const confirm = await screen.findByRole('dialog', { name: 'Confirm cash-out' });
    expect(confirm.textContent).toContain('Cash out $100.00 from card •••• 4321 to ACH (•••• 6789)? The fee is $1.00; you receive $99.00.');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm Cash Out' }));
    const done = await screen.findByRole('dialog', { name: 'Card cashed out successfully!' });
    // The success modal opens in the confirmation's place, and takes the focus.
    await waitFor(() => expect(done.contains(document.activeElement)).toBe(true));
    await user.click(within(done).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cash Out' })));
  });
});

// The server decides: its refusals are shown where its answer says, by the `details` path of a field
// error (never by the wording of the message), else as the form's own alert.
describe('the server refusing a cash-out', () => {
  const savedAch = () => session(profileFixture({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active', lastUsed: null, detail: '•••• 6789', needsDetails: false }] }));
  const submitAndConfirm = async () => {
    const { user } = renderPage(<CashoutForm cards={[card]} initialCardId={card.id} />);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Card/ }), card.id);
    await waitFor(() => expect((screen.getByLabelText(/^Payout method/) as HTMLSelectElement).value).toBe('ach'));
    await user.type(screen.getByLabelText(/^Amount/), '100');
    await user.click(screen.getByRole('button', { name: 'Cash Out' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm cash-out' })).getByRole('button', { name: 'Confirm Cash Out' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  };

  it('a field error lands on the field its path names, whatever its message says', async () => {
    // A message that reads like the payout method's, on the amount's path: the path decides.
    fakeApi({
      'GET /api/session': savedAch(),
      'POST /api/cashouts': { status: 400, body: { error: { code: 'validation_error', message: 'Please select a payout method', details: [{ path: '/amountCents', message: 'Please select a payout method' }] } } },
    });
    await submitAndConfirm();
    const amount = screen.getByLabelText(/^Amount/);
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveAccessibleDescription(expect.stringContaining('Please select a payout method'));
    expect(screen.getByLabelText(/^Payout method/)).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText(/^Card/)).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a refusal without a field path is the form alert, on no field', async () => {
    fakeApi({
      'GET /api/session': savedAch(),
      'POST /api/cashouts': { status: 409, body: { error: { code: 'no_balance', message: 'This card has no remaining balance to cash out' } } },
    });
    await submitAndConfirm();
    expect((await screen.findByRole('alert')).textContent).toContain('This card has no remaining balance to cash out');
    for (const label of [/^Card/, /^Amount/, /^Payout method/]) expect(screen.getByLabelText(label)).not.toHaveAttribute('aria-invalid');
  });
});
