import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { PayoutMethodsView } from '../../../contracts/payout-methods';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';
import { profileFixture } from '../../test/fixtures';
import { PayoutMethodsPanel } from './PayoutMethodsPanel';

// Settings → Payout Methods (docs/rules.md#screens, docs/rules.md#payout-method-settings).

const ach = { method: 'ach' as const, label: 'ACH', status: 'active' as const, lastUsed: null, createdAt: '2026-11-27T12:00:00.000Z', preferred: true, allowedByPlan: true, detail: '•••• 6789', needsDetails: false };
const withAch: PayoutMethodsView = { methods: [ach], preferredPayout: 'ach', allowedMethods: ['ach'], pendingRebates: { count: 0, amountCents: 0 } };
const none: PayoutMethodsView = { ...withAch, methods: [], preferredPayout: null };

describe('Settings → Payout Methods', () => {
  it('removing a method takes its row and its Remove button away: focus goes to the panel, not to the page body', async () => {
    fakeApi({
      'GET /api/payout-methods': { body: withAch },
      'DELETE /api/payout-methods/ach': { body: { ...none, message: 'ACH removed as a payout method', rebatesPaid: { count: 0, amountCents: 0 } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active', lastUsed: null, detail: '•••• 6789', needsDetails: false }] })} />, { path: '/settings' });
    await user.click(await screen.findByRole('button', { name: 'Remove ACH' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove ACH?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('You have no payout methods yet.')).toBeVisible();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Payout Methods' })));
  });

  it('Set as Preferred takes its own button away: focus goes to the panel, not to the page body', async () => {
    const paypal = { ...ach, method: 'paypal' as const, label: 'PayPal', preferred: false, detail: 'ada@example.com' };
    const both: PayoutMethodsView = { ...withAch, methods: [ach, paypal], allowedMethods: ['ach', 'paypal'] };
    const preferPaypal = { ...both, methods: [{ ...ach, preferred: false }, { ...paypal, preferred: true }], preferredPayout: 'paypal' as const };
    fakeApi({
      'GET /api/payout-methods': { body: both },
      'PUT /api/payout-methods/preferred': { body: { ...preferPaypal, message: 'PayPal set as preferred payout method', rebatesPaid: { count: 0, amountCents: 0 } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture({ subscription: 'premium' })} />, { path: '/settings' });
    await user.click(await screen.findByRole('button', { name: 'Set PayPal as preferred' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Set PayPal as preferred' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Payout Methods' })));
  });

  // Decision 169: removing where the money goes is asked first, with what it changes.
  it('asks before removing, says what changes, and Cancel keeps the method', async () => {
    const paypal = { ...ach, method: 'paypal' as const, label: 'PayPal', preferred: false, detail: 'ada@example.com' };
    const both: PayoutMethodsView = { ...withAch, methods: [ach, paypal], allowedMethods: ['ach', 'paypal'] };
    const calls = fakeApi({
      'GET /api/payout-methods': { body: both },
      'DELETE /api/payout-methods/ach': { body: { ...both, methods: [{ ...paypal, preferred: true }], preferredPayout: 'paypal', message: 'ACH removed as a payout method', rebatesPaid: { count: 0, amountCents: 0 } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture({ subscription: 'premium' })} />, { path: '/settings' });
    const remove = await screen.findByRole('button', { name: 'Remove ACH' });
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Remove ACH?' });
    expect(dialog.textContent).toContain('Cash-outs and BNPL rebates will no longer be paid to ACH (•••• 6789).');
    expect(dialog.textContent).toContain('It is your preferred method: another of your methods becomes preferred.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.sent.some((c) => c.method === 'DELETE')).toBe(false);
    expect(screen.getByRole('button', { name: 'Remove ACH' })).toBeVisible();
    await waitFor(() => expect(document.activeElement).toBe(remove));
  });

  it("the payout provider not answering (503) is said in the server's words, and the form keeps what was typed", async () => {
    fakeApi({
      'GET /api/payout-methods': { body: none },
      'POST /api/payout-methods': { status: 503, body: { error: { code: 'service_unavailable', message: 'Our payment partner did not answer in time. Nothing was saved; please try again in a moment.' } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture()} />, { path: '/settings' });
    await user.selectOptions(await screen.findByLabelText(/^Payout method/), 'ach');
    await fill(user, screen.getByLabelText(/^Routing number/), '021000021');
    await fill(user, screen.getByLabelText(/^Bank account number/), '000123456789');
    await user.click(screen.getByRole('button', { name: 'Add Payout Method' }));
    expect(await screen.findByText('Our payment partner did not answer in time. Nothing was saved; please try again in a moment.')).toBeVisible();
    expect((screen.getByLabelText(/^Routing number/) as HTMLInputElement).value).toBe('021000021');
    expect((screen.getByLabelText(/^Bank account number/) as HTMLInputElement).value).toBe('000123456789');
  });

  // Decision 171: a real ACH payout needs the bank's routing number as well as the account.
  it('ACH asks for the routing number and the account number, each with its label, hint and message, and sends both', async () => {
    const api = fakeApi({
      'GET /api/payout-methods': { body: none },
      'POST /api/payout-methods': { status: 201, body: { ...withAch, message: 'ACH added as a payout method', rebatesPaid: { count: 0, amountCents: 0 } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture()} />, { path: '/settings' });
    expect(screen.queryByLabelText(/^Routing number/)).toBeNull();
    await user.selectOptions(await screen.findByLabelText(/^Payout method/), 'ach');
    const routing = screen.getByLabelText(/^Routing number/) as HTMLInputElement;
    const account = screen.getByLabelText(/^Bank account number/) as HTMLInputElement;
    // The routing number first, as on every US bank form.
    expect(routing.compareDocumentPosition(account) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    for (const field of [routing, account]) {
      expect(field.getAttribute('inputmode')).toBe('numeric');
      expect(field.getAttribute('autocomplete')).toBe('off');
      expect(field.getAttribute('aria-invalid')).toBeNull();
    }
    const hintOf = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent;
    expect(hintOf(routing)).toContain('9-digit ABA routing number');
    expect(hintOf(account)).toBe('We keep only the last 4 digits to show you where the money goes.');

    // Nothing typed: both fields say what they need, tied to them.
    await user.click(screen.getByRole('button', { name: 'Add Payout Method' }));
    expect(await screen.findByText('Enter the 9-digit routing number of your bank.')).toBeVisible();
    expect(screen.getByText('Enter the bank account number (4 to 17 digits).')).toBeVisible();
    const errorOf = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[1] ?? '')?.textContent;
    expect(errorOf(routing)).toBe('Enter the 9-digit routing number of your bank.');
    expect(errorOf(account)).toBe('Enter the bank account number (4 to 17 digits).');
    expect(routing.getAttribute('aria-invalid')).toBe('true');
    // A wrong check digit.
    await fill(user, routing, '021000012');
    await fill(user, account, '000123456789');
    expect(account.getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add Payout Method' }));
    await waitFor(() => expect(routing).toHaveAccessibleDescription(expect.stringContaining('That routing number is not valid: check its 9 digits.')));
    expect(routing).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent.some((r) => r.method === 'POST')).toBe(false);

    await user.clear(routing);
    await fill(user, routing, '021-000-021');
    await user.click(screen.getByRole('button', { name: 'Add Payout Method' }));
    expect(await screen.findByText('ACH added as a payout method')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/payout-methods')).toEqual([{ method: 'ach', routingNumber: '021-000-021', detail: '000123456789' }]);
  });

  it('PayPal asks for its e-mail only, and sends no routing number', async () => {
    const api = fakeApi({
      'GET /api/payout-methods': { body: { ...none, allowedMethods: ['ach', 'paypal'] } },
      'POST /api/payout-methods': { status: 201, body: { ...none, message: 'PayPal added as a payout method', rebatesPaid: { count: 0, amountCents: 0 } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture({ subscription: 'premium' })} />, { path: '/settings' });
    await user.selectOptions(await screen.findByLabelText(/^Payout method/), 'ach');
    await fill(user, screen.getByLabelText(/^Routing number/), '021000021');
    await user.selectOptions(screen.getByLabelText(/^Payout method/), 'paypal');
    expect(screen.queryByLabelText(/^Routing number/)).toBeNull();
    await fill(user, screen.getByLabelText(/^PayPal e-mail/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Add Payout Method' }));
    expect(await screen.findByText('PayPal added as a payout method')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/payout-methods')).toEqual([{ method: 'paypal', detail: 'ada@example.com' }]);
  });

  // Decision 172: a saved method without a destination is marked, and its details entered in place.
  it('a saved method without details is marked "Details needed", with the rebates waiting for it; Enter details sends them and clears the mark', async () => {
    const bare = { ...ach, detail: null, needsDetails: true };
    const waiting: PayoutMethodsView = { ...withAch, methods: [bare], pendingRebates: { count: 1, amountCents: 975 } };
    const api = fakeApi({
      'GET /api/payout-methods': { body: waiting },
      'POST /api/payout-methods': { status: 200, body: { ...withAch, message: 'ACH details saved', rebatesPaid: { count: 1, amountCents: 975 } } },
    });
    const { user } = renderPage(<PayoutMethodsPanel profile={profileFixture({ preferredPayout: 'ach' })} />, { path: '/settings' });
    const row = (await screen.findByText('Details needed')).closest('li')!;
    expect(row.textContent).toContain('Nothing can be paid to ACH, cash-out or rebate, until you enter its details again.');
    expect(screen.getByText(/in BNPL rebates will be paid as soon as/).textContent).toContain('$9.75 in BNPL rebates will be paid as soon as you enter the details of ACH, your preferred method.');
    // Not offered again in the add form: it is saved.
    expect(screen.queryByRole('option', { name: 'ACH' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Enter details of ACH' }));
    const form = screen.getByRole('form', { name: 'Details of ACH' });
    await user.click(within(form).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(within(form).getByLabelText(/^Routing number/)).toHaveAccessibleDescription(expect.stringContaining('Enter the 9-digit routing number of your bank.')));
    expect(api.sent.some((r) => r.method === 'POST')).toBe(false);
    await fill(user, within(form).getByLabelText(/^Routing number/), '021000021');
    await fill(user, within(form).getByLabelText(/^Bank account number/), '000123456789');
    await user.click(within(form).getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('ACH details saved')).toBeVisible();
    expect(await screen.findByText('Your pending BNPL rebate of $9.75 was paid to ACH.')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/payout-methods')).toEqual([{ method: 'ach', routingNumber: '021000021', detail: '000123456789' }]);
    await waitFor(() => expect(screen.queryByText('Details needed')).toBeNull());
    expect(screen.queryByRole('form', { name: 'Details of ACH' })).toBeNull();
  });
});
