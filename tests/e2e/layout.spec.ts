import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { cardWithBalance, ok, payoutDestination, signUp } from './fixtures';
import type { Combine } from './fixtures';

// every route, signed in with data (cards, history, a draft, a payout method and a
// cash-out), on a 375 px phone and at 1280 px: no sideways scroll and no axe violations, with the
// modals that open on those pages (history details, card details) checked too.

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

/** A user with two cards (one partly cashed out), history, a saved draft and a payout method. */
async function seed(page: Page, baseURL: string | undefined) {
  await signUp(page, { label: 'layout', origin: baseURL ?? '' });
  const headers = { origin: baseURL ?? '' };
  const { card: first } = await cardWithBalance(page.request, '250', { headers });
  await cardWithBalance(page.request, '1234.56', { headers });
  await payoutDestination(page.request, { headers });
  await ok(await page.request.post('/api/cashouts', { headers: { ...headers, 'idempotency-key': randomUUID() }, data: { cardId: first.id, amountCents: 5_000, payoutMethod: 'ach' } }));
  const draft = await ok<Combine>(await page.request.post('/api/combines', { headers, data: { baseInput: '80', bufferInput: '10', bufferMode: 'percent' } }));
  await ok(await page.request.post(`/api/combines/${draft.id}/save`, { headers, data: { currentStep: 2 } }));
}

async function expectNoSidewaysScroll(page: Page, where: string) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth, `${where}: page is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
}

/** A dialog fades in: axe must see its colours at full opacity, not halfway through the fade. */
async function animationsFinished(page: Page) {
  // Endless ones (a spinner) never finish and are left out.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity).map((animation) => animation.finished)),
  );
}

async function expectAxeClean(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

const ROUTES: ReadonlyArray<{ path: string; ready: string | RegExp }> = [
  { path: '/dashboard', ready: 'Dashboard' },
  { path: '/create-card', ready: 'Create a Virtual Card' },
  { path: '/my-cards', ready: 'My Cards' },
  { path: '/my-cards?view=list', ready: 'My Cards' },
  { path: '/history', ready: 'Card History' },
  { path: '/cashout', ready: 'Cash Out' },
  { path: '/resume-combine', ready: 'Resume Combine' },
  { path: '/settings', ready: 'Account Settings' },
  { path: '/settings?tab=payout-methods', ready: 'Account Settings' },
  { path: '/settings?tab=security', ready: 'Account Settings' },
  { path: '/upgrade', ready: 'Upgrade Plan' },
  { path: '/faq', ready: 'FAQ & Help' },
];

for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
  test(`every signed-in route with data fits a ${viewport.width} px window and passes axe (${name})`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await seed(page, baseURL);
    await page.setViewportSize(viewport);
    for (const route of ROUTES) {
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1, name: route.ready }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page, route.path);
      await expectAxeClean(page, `${route.path} (${name})`);
    }

    // The history details modal: its sources table is reachable by keyboard and fits.
    await page.goto('/history');
    await page.getByRole('button', { name: /View Details/ }).first().click();
    const details = page.getByRole('dialog', { name: 'Combine details' });
    await expect(details.getByText('To card').first()).toBeAttached();
    await expectNoSidewaysScroll(page, 'history details');
    await animationsFinished(page);
    await expectAxeClean(page, `history details (${name})`);
    if (name === 'phone') {
      // Every figure of a source stays on screen: the row becomes a stacked card.
      const row = details.locator('.history-table tbody tr').first();
      for (const label of ['Amount', 'Fee', 'To card']) await expect(row.locator(`td[data-label="${label}"]`)).toBeInViewport();
    }
    await page.keyboard.press('Escape');

    // The My Cards list keeps Details and every amount on a phone.
    await page.goto('/my-cards?view=list');
    const details2 = page.getByRole('button', { name: /View Full Details of card ending/ }).first();
    await expect(details2).toBeInViewport();
    await details2.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSidewaysScroll(page, 'card details');
    await animationsFinished(page);
    await expectAxeClean(page, `card details (${name})`);
  });
}

test('an unknown address goes to the landing page and says "That page doesn\'t exist"', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('.toast').filter({ hasText: "That page doesn't exist" })).toBeVisible();
});
