import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { cardWithBalance, signUp } from './fixtures';
import { randomUUID } from 'node:crypto';

// Card controls as an owner meets them (docs/rules.md#card-controls): a daily limit set in the
// card's details, what it leaves shown at once, a purchase above it declined with the reason in
// words and nothing taken, one inside it approved; at a desktop and a phone width, with axe. And
// live activity (docs/rules.md#live-activity): what happens in one tab shows in another.

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

async function expectAxeClean(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a daily limit declines the purchase above it with its reason, and allows the one inside it`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
    await signUp(page, { label: `controls-${width}` });
    const { card } = await cardWithBalance(page.request, '50');
    await page.goto('/my-cards?view=list');
    await page.getByRole('button', { name: `View Full Details of card ending ${card.last4}` }).click();
    const dialog = page.getByRole('dialog', { name: `Card ending ${card.last4}` });
    await expect(dialog.getByText('No spending limits')).toBeVisible();

    await dialog.getByRole('button', { name: 'Edit controls' }).click();
    const form = dialog.getByRole('form', { name: 'Card controls' });
    await form.getByLabel('Daily limit (last 24 hours)').fill('10');
    await expectAxeClean(page, `the controls form at ${width} px`);
    await form.getByRole('button', { name: 'Save controls' }).click();
    await expect(dialog.getByText('$10.00 left today')).toBeVisible();

    await dialog.getByLabel('Merchant name').fill('Corner Books');
    await dialog.getByLabel('Amount').fill('12');
    await dialog.getByRole('button', { name: 'Simulate purchase' }).click();
    await expect(dialog.getByText("Declined: this card's daily limit leaves $10.00 today.").first()).toBeVisible();
    const transactions = dialog.getByRole('list', { name: `Transactions of card ending ${card.last4}` });
    await expect(transactions.getByRole('listitem').first()).toContainText('Declined');
    // Nothing taken.
    await expect(dialog.locator('.card-amounts')).toContainText(`Remaining${usd(card.remainingAmountCents)}`);
    await expectAxeClean(page, `card details after a declined purchase at ${width} px`);

    await dialog.getByLabel('Merchant name').fill('Corner Books');
    await dialog.getByLabel('Amount').fill('7.50');
    await dialog.getByRole('button', { name: 'Simulate purchase' }).click();
    await expect(dialog.getByText(`Approved: $7.50 at Corner Books. Remaining balance ${usd(card.remainingAmountCents - 750)}.`)).toBeVisible();
    await expect(dialog.getByText('$2.50 left today')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`card-controls-${width}.png`), fullPage: true });
  });
}

test('a declined purchase made elsewhere appears in another tab without a reload, and is announced politely', async ({ page, context }) => {
  await signUp(page, { label: 'live' });
  const { card } = await cardWithBalance(page.request, '50');
  await page.request.put(`/api/cards/${card.id}/controls`, { data: { perDayCents: 1_000 } });
  await page.goto('/my-cards?view=list');
  await page.getByRole('button', { name: `View Full Details of card ending ${card.last4}` }).click();
  const dialog = page.getByRole('dialog', { name: `Card ending ${card.last4}` });
  await expect(dialog.getByText('$10.00 left today')).toBeVisible();

  // Another tab (or device) of the same user buys above the limit, and then within it.
  const other = await context.newPage();
  const buy = (amountCents: number) =>
    other.request.post(`/api/cards/${card.id}/purchases`, { data: { merchant: 'Corner Books', amountCents }, headers: { 'idempotency-key': randomUUID() } });
  expect((await buy(1_200)).status()).toBe(402);
  const transactions = dialog.getByRole('list', { name: `Transactions of card ending ${card.last4}` });
  await expect(transactions.getByRole('listitem').first()).toContainText('Declined');
  await expect(page.getByRole('status').filter({ hasText: "Declined: this card's daily limit leaves $10.00 today." })).toBeAttached();

  expect((await buy(400)).status()).toBe(201);
  await expect(dialog.getByText('$6.00 left today')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `Purchase approved: $4.00 at Corner Books on the card ending ${card.last4}.` })).toBeAttached();
  await expectAxeClean(page, 'card details after live updates');
});
