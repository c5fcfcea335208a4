import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { cardWithBalance, completeCombine, ok, PASSWORD, signUp } from './fixtures';
import type { Combine } from './fixtures';

// Cards, dashboard and history: filters and views, the flip, the reveal with its
// password prompt, freeze blocking a purchase, a purchase lowering the balance, use as source,
// history filters and CSV, the dashboard's figures after three combines, and load failures that
// show the spec's message with a retry. Cards are created through the wizard's API (demo mode).

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

async function expectAxeClean(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

function tile(page: Page, last4: string) {
  return page.getByRole('listitem', { name: `Card ending ${last4}` });
}

async function openDetails(page: Page, last4: string) {
  await page.goto('/my-cards?view=list');
  await page.getByRole('button', { name: `View Full Details of card ending ${last4}` }).click();
  const dialog = page.getByRole('dialog', { name: `Card ending ${last4}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('my cards: newest first, filters with their empty states, grid and list views, the flip', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  const older = (await cardWithBalance(page.request, '120')).card;
  const newer = (await cardWithBalance(page.request, '45', { cardType: 'single-use' })).card;
  await ok(await page.request.post(`/api/cards/${older.id}/freeze`));

  await page.goto('/my-cards');
  await expect(page.getByRole('heading', { level: 1, name: 'My Cards' })).toBeVisible();
  const grid = page.getByRole('list', { name: 'Cards' });
  const tiles = grid.getByRole('listitem', { name: /^Card ending \d{4}$/ });
  await expect(tiles).toHaveCount(2);
  // Newest first.
  await expect(tiles.first()).toHaveAccessibleName(`Card ending ${newer.last4}`);
  await expectAxeClean(page, '/my-cards grid');

  const filters = page.getByRole('group', { name: 'Filter cards' });
  await filters.getByRole('button', { name: 'Frozen' }).click();
  await expect(filters.getByRole('button', { name: 'Frozen' })).toHaveAttribute('aria-pressed', 'true');
  await expect(tiles).toHaveCount(1);
  await expect(tile(page, older.last4)).toBeVisible();
  await filters.getByRole('button', { name: 'Active' }).click();
  await expect(tiles).toHaveCount(1);
  await expect(tile(page, newer.last4)).toBeVisible();
  await filters.getByRole('button', { name: 'Cashed Out' }).click();
  await expect(page.getByRole('heading', { name: 'No cashed out cards' })).toBeVisible();
  await page.getByRole('button', { name: 'Show All Cards' }).click();
  await expect(filters.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await expect(tiles).toHaveCount(2);

  // The flip: the back shows original, spent and remaining, and the actions the card allows.
  const card = tile(page, newer.last4);
  await card.getByRole('button', { name: `Flip card ending ${newer.last4}` }).click();
  const back = card.locator('.card-tile-back');
  // Keyboard focus follows the flip to the face that is showing.
  await expect(back.getByRole('button', { name: `Flip back card ending ${newer.last4}` })).toBeFocused();
  await expect(back.getByText('Original')).toBeVisible();
  await expect(back.getByText('Spent')).toBeVisible();
  await expect(back.getByText('Remaining')).toBeVisible();
  await expect(back.getByText(usd(newer.originalAmountCents)).first()).toBeVisible();
  await expect(back.getByRole('link', { name: `Use card ending ${newer.last4} as Source` })).toHaveAttribute(
    'href',
    `/create-card?fromCard=${newer.id}&amountCents=${newer.remainingAmountCents}`,
  );
  // Cash Out opens the cash-out modal on this page (docs/rules.md#cashout-checks), with this card chosen.
  await back.getByRole('button', { name: `Cash Out card ending ${newer.last4}` }).click();
  const cashout = page.getByRole('dialog', { name: 'Cash Out' });
  await expect(cashout.getByLabel(/^Card/)).toHaveValue(newer.id);
  await expectAxeClean(page, 'cash-out modal');
  await page.keyboard.press('Escape');
  await expect(cashout).toHaveCount(0);
  // The back's own button turns the card back to its front.
  await back.getByRole('button', { name: `Flip back card ending ${newer.last4}` }).click();
  await expect(card.locator('.card-tile-front')).not.toHaveAttribute('inert');
  await expect(card.getByRole('button', { name: `Flip card ending ${newer.last4}` })).toBeFocused();
  // A frozen card offers neither, and says why.
  const frozen = tile(page, older.last4);
  await frozen.getByRole('button', { name: `Flip card ending ${older.last4}` }).click();
  await expect(frozen.getByText('This card is frozen. Unfreeze it to spend, cash out or use it as a source.')).toBeVisible();
  await expect(frozen.getByRole('button', { name: /Cash Out/ })).toHaveCount(0);

  // The list view, still newest first.
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(newer.last4);
  await expect(rows.nth(2)).toContainText(older.last4);
  await expect(rows.nth(2)).toContainText('Frozen');
  await expectAxeClean(page, '/my-cards list');

  await expect(page.getByRole('link', { name: 'Create a new card' })).toHaveAttribute('href', '/create-card');
});

test('a new user sees the Create a Card empty state; a failed load says so and retries', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  await page.goto('/my-cards');
  await expect(page.getByRole('heading', { name: 'No cards yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create a Card' })).toHaveAttribute('href', '/create-card');

  let failing = true;
  await page.route('**/api/cards?*', (route) => (failing ? route.fulfill({ status: 503, json: { error: { code: 'service_unavailable', message: 'PayWeave is temporarily unavailable.' } } }) : route.fallback()));
  await page.goto('/my-cards?filter=active');
  await expect(page.getByRole('heading', { name: 'Failed to load cards' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('PayWeave is temporarily unavailable.')).toBeVisible();
  failing = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'No active cards' })).toBeVisible();

  await page.route('**/api/combines?*', (route) => route.fulfill({ status: 500, json: { error: { code: 'internal_error', message: 'Something went wrong on our side.' } } }));
  await page.goto('/history');
  await expect(page.getByRole('heading', { name: 'Failed to load history' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('reveal asks for the password when the server wants it, then shows number, expiry and CVV, hidden again on reopen', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  const { card } = await cardWithBalance(page.request, '60');
  // The server's five-minute rule is proven by the API tests; here the first answer says the
  // password is too old, so the prompt can be driven without waiting five minutes.
  let askedOnce = false;
  await page.route(`**/api/cards/${card.id}/reveal`, (route) => {
    if (askedOnce) return route.fallback();
    askedOnce = true;
    return route.fulfill({ status: 403, json: { error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } } });
  });

  const dialog = await openDetails(page, card.last4);
  await expect(dialog.getByText(`•••• •••• •••• ${card.last4}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Reveal card details' }).click();
  const password = dialog.getByRole('textbox', { name: 'Password', exact: true });
  await expect(password).toBeVisible();
  await password.fill('Wrong-Password-1');
  await dialog.getByRole('button', { name: 'Confirm and reveal' }).click();
  await expect(dialog.getByText(/incorrect/i)).toBeVisible();
  await password.fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm and reveal' }).click();

  const details = dialog.getByRole('region', { name: 'Card details' });
  await expect(details.getByText(/^\d{4} \d{4} \d{4} \d{4}$/)).toBeVisible();
  const shown = (await details.getByText(/^\d{4} \d{4} \d{4} \d{4}$/).textContent()) ?? '';
  expect(shown.replace(/ /g, '').slice(-4)).toBe(card.last4);
  await expect(details.getByText(/^\d{2}\/\d{2}$/)).toBeVisible();
  await expect(details.getByText(/^\d{3}$/)).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy card number' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy expiry' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy CVV' })).toBeVisible();
  await expectAxeClean(page, 'card details revealed');

  // Closing and reopening the modal hides the details again.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: `View Full Details of card ending ${card.last4}` }).click();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Reveal card details' })).toBeVisible();
  await expect(page.getByRole('dialog').getByText(shown)).toHaveCount(0);
});

test('a purchase lowers the balance; freezing declines the next one with its reason; unfreezing restores it', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  const { card } = await cardWithBalance(page.request, '50');
  const dialog = await openDetails(page, card.last4);

  await dialog.getByLabel('Merchant name').fill('Corner Books');
  await dialog.getByLabel('Amount').fill('12.34');
  await dialog.getByRole('button', { name: 'Simulate purchase' }).click();
  const remaining = card.remainingAmountCents - 1_234;
  await expect(dialog.getByText(`Approved: $12.34 at Corner Books. Remaining balance ${usd(remaining)}.`)).toBeVisible();
  const transactions = dialog.getByRole('list', { name: `Transactions of card ending ${card.last4}` });
  await expect(transactions.getByRole('listitem').first()).toContainText('Purchase');
  await expect(transactions.getByRole('listitem').first()).toContainText('Corner Books');
  await expect(dialog.locator('.card-amounts')).toContainText(usd(remaining));

  await dialog.getByRole('button', { name: 'Freeze card' }).click();
  await expect(dialog.getByRole('button', { name: 'Unfreeze card' })).toBeVisible();
  await dialog.getByLabel('Merchant name').fill('Gadget Store');
  await dialog.getByLabel('Amount').fill('5');
  await dialog.getByRole('button', { name: 'Simulate purchase' }).click();
  await expect(dialog.getByText('Declined: this card is frozen. Unfreeze it to use it.').first()).toBeVisible();
  await expect(transactions.getByRole('listitem').first()).toContainText('Declined');
  // The balance did not move.
  await expect(dialog.locator('.card-amounts')).toContainText(usd(remaining));
  await expectAxeClean(page, 'card details after a decline');

  await dialog.getByRole('button', { name: 'Unfreeze card' }).click();
  await expect(dialog.getByRole('button', { name: 'Freeze card' })).toBeVisible();
  await dialog.getByLabel('Merchant name').fill('Gadget Store');
  await dialog.getByLabel('Amount').fill('5');
  await dialog.getByRole('button', { name: 'Simulate purchase' }).click();
  await expect(dialog.getByText(`Approved: $5.00 at Gadget Store. Remaining balance ${usd(remaining - 500)}.`)).toBeVisible();

  // The list agrees with the modal.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('table').getByRole('row', { name: new RegExp(card.last4) })).toContainText(usd(remaining - 500));
});

test('use as source: a new combine funded from a card moves its balance into a new funded card', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  const { card: source } = await cardWithBalance(page.request, '100');
  await page.goto('/my-cards');
  await tile(page, source.last4).getByRole('button', { name: `Flip card ending ${source.last4}` }).click();
  const link = tile(page, source.last4).getByRole('link', { name: `Use card ending ${source.last4} as Source` });
  await expect(link).toHaveAttribute('href', `/create-card?fromCard=${source.id}&amountCents=${source.remainingAmountCents}`);

  // The combine the wizard builds from that link: the card's balance as an internal source.
  const combine = await ok<Combine>(await page.request.post('/api/combines', { data: { baseInput: '40', bufferInput: '0', bufferMode: 'percent' } }));
  await ok(await page.request.post(`/api/combines/${combine.id}/sources`, { data: { type: 'internal', sourceCardId: source.id, chargeCents: combine.funding.suggestedChargeCents.internal } }));
  const { card: funded } = await completeCombine(page.request, combine.id);
  expect(funded.remainingAmountCents).toBeGreaterThan(0);

  await page.goto('/my-cards?view=list');
  await expect(page.getByRole('row', { name: new RegExp(funded.last4) })).toContainText(usd(funded.remainingAmountCents));
  const left = source.remainingAmountCents - combine.funding.suggestedChargeCents.internal;
  await expect(page.getByRole('row', { name: new RegExp(source.last4) })).toContainText(usd(left));
  const dialog = await openDetails(page, source.last4);
  await expect(dialog.getByRole('list', { name: `Transactions of card ending ${source.last4}` }).getByRole('listitem').first()).toContainText('Used as a source');
});

test('history: entries, range filters, details modal and page, and the CSV export', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  const first = await cardWithBalance(page.request, '75');
  const second = await cardWithBalance(page.request, '130');

  await page.goto('/history');
  await expect(page.getByRole('heading', { level: 1, name: 'Card History' })).toBeVisible();
  const entries = page.getByRole('list', { name: 'Completed combines' }).getByRole('listitem');
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText(usd(second.card.originalAmountCents));
  await expect(entries.first()).toContainText('1 source');
  await expect(entries.first()).toContainText('Active');
  await expectAxeClean(page, '/history');

  const ranges = page.getByRole('group', { name: 'Show combines from' });
  for (const label of ['Last 7 Days', 'Last 30 Days']) {
    await ranges.getByRole('button', { name: label }).click();
    await expect(ranges.getByRole('button', { name: label })).toHaveAttribute('aria-pressed', 'true');
    await expect(entries).toHaveCount(2);
  }
  await expect(page).toHaveURL(/range=1m/);

  // The export is the filtered history.
  const exportLink = page.getByRole('link', { name: 'Export CSV' });
  await expect(exportLink).toHaveAttribute('href', '/api/history.csv?range=1m');
  const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^payweave-history-1m-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Created (UTC),Completed (UTC),Combine ID,Card Amount (USD),Sources,Source Details,Card,Card Status,Balance (USD),Fees (USD),Rebate (USD),Promo Applied');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(second.combineId);
  expect(lines[1]).toContain((second.card.originalAmountCents / 100).toFixed(2));
  expect(lines[2]).toContain(first.combineId);
  expect(lines[2]).toContain(`ending ${first.card.last4}`);

  // Details: the modal, then the page.
  await entries.first().getByRole('button', { name: /View Details/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Combine details' });
  await expect(dialog.getByRole('cell', { name: 'Credit' })).toBeVisible();
  await expect(dialog.getByRole('rowheader', { name: /Visa/ })).toBeVisible();
  // In the card's section: a virtual card can end in the source's 4242 too (one in ten thousand).
  await expect(dialog.getByRole('region', { name: 'Card' }).getByText(`•••• ${second.card.last4}`)).toBeVisible();
  await expectAxeClean(page, 'history details modal');
  await dialog.getByRole('link', { name: 'Open as a page' }).click();
  await expect(page).toHaveURL(`/history/${second.combineId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Combine details' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Sources' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Card' }).getByText(`•••• ${second.card.last4}`)).toBeVisible();
});

test('dashboard after three combines: 3 of 3 this month, a boost earned, the last three, the balances', async ({ page }) => {
  await signUp(page, { label: 'cards' });
  const created = [];
  for (const base of ['100', '200', '300']) created.push(await cardWithBalance(page.request, base));

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const month = page.getByRole('region', { name: 'Combines this month' });
  await expect(month.getByText(/^3\s*of 3$/)).toBeVisible();
  await expect(month.getByText('Monthly limit reached: upgrade for more.')).toBeVisible();
  await expect(month.getByTestId('combines-left')).toContainText('0 of 3 combines left this month');
  const boosts = page.getByRole('region', { name: 'Fee boosts' });
  await expect(boosts).toContainText('1 of 3 available');
  await expect(boosts).toContainText('0 of 3 used');
  await expect(page.getByRole('region', { name: 'Your plan' })).toContainText('Free Plan');
  await expect(page.getByRole('region', { name: 'Launch promo' })).toContainText(/discounts remain|All promo spots have been claimed!/);

  const activity = page.getByRole('region', { name: 'Recent activity' });
  const links = activity.getByRole('link', { name: /View Details/ });
  await expect(links).toHaveCount(3);
  const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
  expect(hrefs.sort()).toEqual(created.map((c) => `/history/${c.combineId}`).sort());

  const total = created.reduce((sum, c) => sum + c.card.remainingAmountCents, 0);
  const chart = page.getByRole('region', { name: 'Balance across your cards' });
  await expect(chart).toContainText(`${usd(total)} across 3 cards`);
  await expect(chart.getByRole('img')).toHaveCount(3);
  await expectAxeClean(page, '/dashboard');

  await links.first().click();
  await expect(page).toHaveURL(/\/history\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Combine details' })).toBeVisible();
});
