import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { cardWithBalance, ok, payoutDestination, signUp } from './fixtures';

// Cash out, payout methods, plans, upgrade and subscription. Cards are created through
// the wizard's API (demo mode); everything else goes through the screens.

type Api = APIRequestContext;

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Upgrades through the API, for tests whose subject is not the payment form. */
async function upgradeViaApi(request: Api, plan: 'premium' | 'premium+') {
  await ok(
    await request.post('/api/subscription/upgrade', {
      data: { plan, billingCycle: 'monthly', card: { name: 'Test User', number: '4111 1111 1111 1111', expMonth: 12, expYear: new Date().getFullYear() + 2, cvv: '123' } },
      headers: { 'idempotency-key': randomUUID() },
    }),
  );
}

function toast(page: Page, text: string) {
  return page.locator('.toast').filter({ hasText: text }).last();
}

async function expectAxeClean(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

/** The cash-out form's steps: Cash Out, the confirm modal, processing, the success modal. */
async function cashOut(page: Page, amount: string) {
  await page.getByLabel('Amount').fill(amount);
  await page.getByRole('button', { name: 'Cash Out', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm cash-out' });
  await expect(confirm).toContainText('Processing takes 1-3 business days.');
  await confirm.getByRole('button', { name: 'Confirm Cash Out' }).click();
  const done = page.getByRole('dialog', { name: 'Card cashed out successfully!' });
  await expect(done).toBeVisible();
  await expect(toast(page, 'Card cashed out successfully!')).toBeVisible();
  return done;
}

test('a Free user cashes out part of a card to ACH, sees the fee and net of DECISIONS, then the rest: Cashed Out', async ({ page }) => {
  await signUp(page, { label: 'cashout' });
  const { card } = await cardWithBalance(page.request, '500');

  await page.goto(`/cashout?cardId=${card.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cash Out' })).toBeVisible();
  // The card is preselected; the amount and the method are the user's to choose.
  await expect(page.getByRole('combobox', { name: 'Card', exact: true })).toHaveValue(card.id);
  await expect(page.getByLabel('Amount')).toHaveValue('');
  await page.getByRole('button', { name: /^Whole balance/ }).click();
  await expect(page.getByLabel('Amount')).toHaveValue(dollars(card.remainingAmountCents));
  // Free: ACH only (docs/rules.md#payout-methods-by-plan), not chosen for the user while none is saved.
  const method = page.getByLabel('Payout method');
  await expect(method.locator('option')).toHaveText(['Select a payout method', 'ACH']);
  await expect(method).toHaveValue('');
  await method.selectOption('ach');
  // First use of ACH: the bank's routing number and the account are asked for (decision 171); the
  // account is kept masked.
  await expect(page.getByLabel('Routing number')).toBeVisible();
  await expect(page.getByLabel('Bank account number')).toBeVisible();
  await page.getByLabel('Routing number').fill('011000015');
  await page.getByLabel('Bank account number').fill('000123456789');

  // The amount is clamped to the balance as it is typed, and the form says so.
  await page.getByLabel('Amount').fill('999999');
  await expect(page.getByLabel('Amount')).toHaveValue(dollars(card.remainingAmountCents));
  await expect(page.getByText(`Set to the card's balance, ${usd(card.remainingAmountCents)}: you cannot cash out more than is on the card.`)).toBeVisible();
  // Spec messages, shown once the field was touched.
  await page.getByLabel('Amount').fill('0');
  await page.getByLabel('Amount').blur();
  await expect(page.getByText('Please enter a valid amount')).toBeVisible();

  // docs/rules.md#fee-examples: $123.45 on Free → fee $1.23, net $122.22.
  await page.getByLabel('Amount').fill('123.45');
  await expect(page.getByTestId('cashout-fee')).toHaveText('$1.23');
  await expect(page.getByTestId('cashout-net')).toHaveText('$122.22');
  await expectAxeClean(page, '/cashout');

  const first = await cashOut(page, '123.45');
  await expect(first).toContainText('$1.23');
  await expect(first).toContainText('$122.22');
  await expect(first).toContainText('ACH');
  const rest = card.remainingAmountCents - 12_345;
  await expect(first).toContainText(usd(rest));
  await first.getByRole('button', { name: 'Done' }).click();
  // ACH is now saved (with its masked account) and preferred: chosen, and not asked again.
  const me = await ok<{ payoutMethods: Array<{ method: string }>; preferredPayout: string | null }>(await page.request.get('/api/me'));
  expect(me).toMatchObject({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach' }] });
  const saved = await ok<{ methods: Array<{ detail: string | null }> }>(await page.request.get('/api/payout-methods'));
  expect(saved.methods[0]?.detail).toBe('•••• 6789');
  await expect(page.getByLabel('Payout method')).toHaveValue('ach');
  await expect(page.getByLabel('Payout method').locator('option')).toHaveText(['Select a payout method', 'ACH (•••• 6789)']);
  await expect(page.getByLabel('Bank account number')).toHaveCount(0);
  await expect(page.getByLabel('Routing number')).toHaveCount(0);

  // The rest.
  await expect(page.getByLabel('Amount')).toHaveValue('');
  const second = await cashOut(page, dollars(rest));
  await expect(second).toContainText('The card is now Cashed Out.');
  await second.getByRole('button', { name: 'Done' }).click();

  // No card with a balance is left: the page links to My Cards and Create Card.
  await expect(page.getByRole('heading', { name: 'No cards to cash out' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to My Cards' })).toHaveAttribute('href', '/my-cards');
  await expect(page.getByRole('link', { name: 'Create a Card' })).toHaveAttribute('href', '/create-card');

  await page.goto('/my-cards?filter=cashed_out&view=list');
  await expect(page.getByRole('row').filter({ hasText: card.last4 })).toContainText('Cashed Out');
  const cashouts = await ok<{ cashouts: Array<{ amountCents: number; feeCents: number; netAmountCents: number }> }>(await page.request.get('/api/cashouts'));
  expect(cashouts.cashouts.map((c) => [c.amountCents, c.feeCents, c.netAmountCents]).at(-1)).toEqual([12_345, 123, 12_222]);
});

test('PayPal is refused on Free and offered after upgrading to Premium through the validated payment form', async ({ page }) => {
  await signUp(page, { label: 'cashout' });
  const { card } = await cardWithBalance(page.request, '200');

  await page.goto('/cashout');
  await expect(page.getByLabel('Payout method').locator('option', { hasText: 'PayPal' })).toHaveCount(0);
  const refused = await page.request.post('/api/cashouts', { data: { cardId: card.id, amountCents: 1_000, payoutMethod: 'paypal' }, headers: { 'idempotency-key': randomUUID() } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toBe('PayPal payouts are not available on the Free plan.');

  await page.goto('/upgrade');
  await expect(page.getByRole('heading', { level: 1, name: 'Upgrade Plan' })).toBeVisible();
  const free = page.getByRole('listitem', { name: 'Free' });
  await expect(free.getByRole('button', { name: 'Not Available' })).toBeDisabled();
  // The price in the same form as the other plans', not a second 'Free' under the name.
  await expect(free).toContainText('$0.00 / month');
  await expect(page.getByRole('listitem', { name: 'Premium', exact: true })).toContainText('$9.99');
  await page.getByRole('group', { name: 'Billing cycle' }).getByRole('button', { name: 'Yearly' }).click();
  await expect(page.getByRole('listitem', { name: 'Premium', exact: true })).toContainText('$99.99');
  await expect(page.getByRole('listitem', { name: 'Premium', exact: true })).toContainText('Save 16%');
  await page.getByRole('group', { name: 'Billing cycle' }).getByRole('button', { name: 'Monthly' }).click();
  await expect(page.getByRole('table')).toContainText('$10,999.00');
  await expect(page.getByRole('table').getByText('Cheapest').first()).toBeVisible();
  await expect(page.getByText('Loyalty discount', { exact: true })).toBeVisible();
  await expectAxeClean(page, '/upgrade');

  await page.getByRole('button', { name: 'Upgrade to Premium', exact: true }).click();
  const pay = page.getByRole('dialog', { name: 'Upgrade to Premium' });
  await expect(pay.getByTestId('upgrade-due')).toHaveText('$9.99');
  // Demo mode: the first five fields are required.
  await pay.getByRole('button', { name: 'Pay $9.99' }).click();
  for (const message of ['Name on card is required', 'Card number is required', 'Expiry month is required', 'Expiry year is required', 'CVV is required']) {
    await expect(pay.getByText(message)).toBeVisible();
  }
  await expect(pay.getByText('ZIP code is required')).toHaveCount(0);
  // Digits only, grouped in fours, at most 19 characters; CVV up to 4 digits; ZIP up to 5.
  await pay.getByLabel('Card number').fill('4111a1111-1111 111199999');
  await expect(pay.getByLabel('Card number')).toHaveValue('4111 1111 1111 1111');
  await pay.getByLabel('CVV').fill('12ab345');
  await expect(pay.getByLabel('CVV')).toHaveValue('1234');
  await pay.getByLabel('ZIP code').fill('1234567');
  await expect(pay.getByLabel('ZIP code')).toHaveValue('12345');
  await pay.getByLabel('Name on card').fill('Ada Lovelace');
  await pay.getByLabel('Expiry month').selectOption('12');
  const year = new Date().getFullYear();
  await expect(pay.getByLabel('Expiry year').locator('option')).toHaveCount(12);
  await expect(pay.getByLabel('Expiry year').locator('option').last()).toHaveText(String(year + 10));
  await pay.getByLabel('Expiry year').selectOption(String(year + 2));
  await pay.getByRole('button', { name: 'Pay $9.99' }).click();

  const success = page.getByRole('dialog', { name: 'Upgrade successful!' });
  await expect(success).toBeVisible();
  const next = new Date(Date.now() + 30 * 86_400_000);
  await expect(success.getByTestId('next-billing-date')).toContainText(String(next.getFullYear()));
  await expect(success.getByTestId('next-billing-date')).toContainText(new Intl.DateTimeFormat('en-US', { month: 'long' }).format(next));
  await expect(success.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  await success.getByRole('button', { name: 'Close', exact: true }).last().click();
  // Now Premium: the current plan and the downgrade say 'Not Available'.
  await expect(page.getByRole('listitem', { name: 'Premium', exact: true }).getByRole('button', { name: 'Not Available' })).toBeDisabled();
  await expect(page.getByRole('navigation', { name: 'Account menu' }).getByText('Premium Plan')).toBeVisible();
  // Paid plans see no ad.
  await expect(page.getByTestId('ad-banner')).toHaveCount(0);

  await page.goto(`/cashout?cardId=${card.id}`);
  const method = page.getByLabel('Payout method');
  await expect(method.locator('option')).toHaveText(['Select a payout method', 'ACH', 'PayPal']);
  await method.selectOption('paypal');
  await page.getByLabel('PayPal e-mail').fill('ada@example.com');
  await page.getByLabel('Amount').fill('100.00');
  // Premium: 0.5%.
  await expect(page.getByTestId('cashout-fee')).toHaveText('$0.50');
  const done = await cashOut(page, '100.00');
  await expect(done).toContainText('PayPal');
  await expect(done).toContainText('$99.50');
});

test('payout methods: add, duplicate, plan limits, preferred, remove', async ({ page }) => {
  await signUp(page, { label: 'cashout' });
  await page.goto('/settings?tab=payout-methods');
  const panel = page.getByRole('tabpanel', { name: 'Payout Methods' });
  await expect(panel.getByText('You have no payout methods yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Add Payout Method' }).click();
  await expect(toast(page, 'Please select a payout method')).toBeVisible();
  // Free: ACH only.
  await expect(panel.getByRole('combobox', { name: 'Payout method' }).locator('option')).toHaveText(['Select a payout method', 'ACH']);
  await panel.getByRole('combobox', { name: 'Payout method' }).selectOption('ach');
  // Where the money goes is asked with the method; only the last 4 digits are kept.
  await panel.getByRole('button', { name: 'Add Payout Method' }).click();
  await expect(panel.getByText('Enter the 9-digit routing number of your bank.')).toBeVisible();
  await expect(panel.getByText('Enter the bank account number (4 to 17 digits).')).toBeVisible();
  // With the bank's routing number (decision 171): a wrong check digit is caught here.
  await panel.getByLabel('Routing number').fill('021000012');
  await panel.getByLabel('Bank account number').fill('000123456789');
  await panel.getByRole('button', { name: 'Add Payout Method' }).click();
  await expect(panel.getByText('That routing number is not valid: check its 9 digits.')).toBeVisible();
  await panel.getByLabel('Routing number').fill('021000021');
  await panel.getByRole('button', { name: 'Add Payout Method' }).click();
  await expect(toast(page, 'ACH added as a payout method')).toBeVisible();
  const list = panel.getByRole('list', { name: 'Your payout methods' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Preferred');
  await expect(list.getByRole('listitem').first()).toContainText('•••• 6789');
  // The picker offers only what is not added yet: on Free, nothing is left.
  await expect(panel.getByText('Every payout method of the Free plan is added.')).toBeVisible();
  await expectAxeClean(page, '/settings payout methods');

  await upgradeViaApi(page.request, 'premium+');
  await page.reload();
  await expect(panel.getByRole('combobox', { name: 'Payout method' }).locator('option')).toHaveText(['Select a payout method', 'PayPal', 'Cash App']);
  await panel.getByRole('combobox', { name: 'Payout method' }).selectOption('paypal');
  await panel.getByLabel('PayPal e-mail').fill('ada@example.com');
  await panel.getByRole('button', { name: 'Add Payout Method' }).click();
  await expect(toast(page, 'PayPal added as a payout method')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // The first one added stays preferred until the user chooses another.
  await expect(list.getByRole('listitem').filter({ hasText: 'ACH' })).toContainText('Preferred');
  await panel.getByRole('button', { name: 'Set PayPal as preferred' }).click();
  await expect(toast(page, 'PayPal set as preferred payout method')).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: 'PayPal' })).toContainText('Preferred');
  // Removing the preferred one moves the preference to the other.
  // Removing is asked first, with what it changes (decision 169).
  await panel.getByRole('button', { name: 'Remove PayPal' }).click();
  const confirmRemoval = page.getByRole('dialog', { name: 'Remove PayPal?' });
  await expect(confirmRemoval).toContainText('It is your preferred method: another of your methods becomes preferred.');
  await confirmRemoval.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'PayPal removed as a payout method')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Preferred');
  await panel.getByRole('button', { name: 'Remove ACH' }).click();
  await expect(page.getByRole('dialog', { name: 'Remove ACH?' })).toContainText('You will have no payout method left');
  await page.getByRole('dialog', { name: 'Remove ACH?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'ACH removed as a payout method')).toBeVisible();
  await expect(panel.getByText('You have no payout methods yet.')).toBeVisible();
  const me = await ok<{ preferredPayout: string | null; payoutMethods: unknown[] }>(await page.request.get('/api/me'));
  expect(me).toMatchObject({ preferredPayout: null, payoutMethods: [] });
});

// Decision 172: a payout goes only to a destination the payout provider knows. A method saved
// without details (an API client older than payout details) is marked, refused before any money moves,
// and its details, asked on the cash-out form, are saved with it before the cash-out.
test('a method saved without details: marked in Settings, refused by the API, its details asked and saved on the cash-out form', async ({ page }) => {
  await signUp(page, { label: 'cashout' });
  const { card } = await cardWithBalance(page.request, '100');
  await payoutDestination(page.request, { details: false });
  const refused = await page.request.post('/api/cashouts', { data: { cardId: card.id, amountCents: 1_000, payoutMethod: 'ach' }, headers: { 'idempotency-key': randomUUID() } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe('payout_method_needs_details');

  await page.goto('/settings?tab=payout-methods');
  const row = page.getByRole('tabpanel', { name: 'Payout Methods' }).getByRole('listitem').filter({ hasText: 'ACH' });
  await expect(row).toContainText('Details needed');
  await expect(row.getByRole('button', { name: 'Enter details of ACH' })).toBeVisible();

  await page.goto('/cashout');
  const method = page.getByLabel('Payout method');
  await expect(method).toHaveValue('ach');
  await expect(method.locator('option')).toHaveText(['Select a payout method', 'ACH (details needed)']);
  await page.getByLabel('Routing number').fill('021000021');
  await page.getByLabel('Bank account number').fill('000123456789');
  await expectAxeClean(page, '/cashout with details needed');
  const done = await cashOut(page, '10.00');
  await expect(done).toContainText('$9.90');
  await done.getByRole('button', { name: 'Done' }).click();
  const saved = await ok<{ methods: Array<{ method: string; detail: string | null; needsDetails: boolean }> }>(await page.request.get('/api/payout-methods'));
  expect(saved.methods).toEqual([expect.objectContaining({ method: 'ach', detail: '•••• 6789', needsDetails: false })]);
  await expect(method.locator('option')).toHaveText(['Select a payout method', 'ACH (•••• 6789)']);
  await expect(page.getByLabel('Routing number')).toHaveCount(0);
});

test('subscription: plan, loyalty and next billing date, then cancel with the confirm modal', async ({ page }) => {
  await signUp(page, { label: 'cashout' });
  await page.goto('/settings?tab=subscription');
  const panel = page.getByRole('tabpanel', { name: 'Subscription' });
  await expect(panel.getByTestId('subscription-plan')).toHaveText('Free Plan');
  await expect(panel.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);

  await upgradeViaApi(page.request, 'premium');
  await page.reload();
  await expect(panel.getByTestId('subscription-plan')).toHaveText('Premium Plan');
  await expect(panel.getByTestId('subscription-loyalty')).toHaveText('Month 1, 0% discount');
  await expect(panel.getByTestId('next-billing-date')).toContainText('$8.99 (10% loyalty discount)');
  await expectAxeClean(page, '/settings subscription');

  await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
  await expect(confirm).toContainText('then your account moves to the Free plan');
  await confirm.getByRole('button', { name: 'Keep My Plan' }).click();
  await expect(confirm).toBeHidden();
  await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
  await confirm.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(toast(page, 'Your subscription has been cancelled.')).toBeVisible();
  await expect(panel.getByText('Your subscription is cancelled')).toBeVisible();
  // The plan stays until the period end; loyalty starts again.
  await expect(panel.getByTestId('subscription-plan')).toHaveText('Premium Plan');
  await expect(panel.getByTestId('subscription-loyalty')).toHaveText('Reset by the cancellation: a new subscription starts again at month 1');
  await expect(panel.getByTestId('next-billing-date')).toHaveCount(0);
});

test('a Free user sees the ad on /upgrade, which can be closed after 3 s', async ({ page }) => {
  await signUp(page, { label: 'cashout' });
  await page.goto('/upgrade');
  const ad = page.getByRole('complementary', { name: 'Advertisement' });
  await expect(ad).toBeVisible();
  await expect(ad).toContainText('Premium');
  const close = ad.getByRole('button', { name: /^Close ad/ });
  await expect(close).toBeDisabled();
  await expect(ad.getByRole('button', { name: 'Close ad', exact: true })).toBeEnabled({ timeout: 5_000 });
  await ad.getByRole('button', { name: 'Close ad', exact: true }).click();
  await expect(ad).toHaveCount(0);
});

test('the ad goes away by itself after 15 s', async ({ page }) => {
  await page.clock.install();
  await signUp(page, { label: 'cashout' });
  await page.goto('/upgrade');
  const ad = page.getByRole('complementary', { name: 'Advertisement' });
  await expect(ad).toBeVisible();
  await page.clock.runFor(16_000);
  await expect(ad).toHaveCount(0);
});
