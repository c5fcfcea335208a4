import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// The public pages: the promo counter's honesty (docs/rules.md#honest-figures), FAQ search, the catch-all
// redirect, the support form's validation, and zero axe violations on every public page.

type PromoStatus = { limitCount: number; claimedCount: number; remainingCount: number };
type PublicConfig = { demoMode: boolean; supportEmail: string; payAddress: string };

const PUBLIC_PAGES = ['/', '/login', '/register', '/reset-password', '/terms', '/privacy', '/compliance', '/support', '/faq'];

const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 375, height: 812 },
} as const;

/** Waits until the page has its heading and no request is pending (promo, config, session). */
async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test.describe('landing page', () => {
  test('shows the number of promo spots the API reports, not a made-up one', async ({ page, request }) => {
    const before = (await (await request.get('/api/promo')).json()) as PromoStatus;
    await page.goto('/');
    const promo = page.getByRole('region', { name: /50% off product fees/ });
    await expect(promo.getByText(/discounts remaining|All promo spots have been claimed!/)).toBeVisible();
    const after = (await (await request.get('/api/promo')).json()) as PromoStatus;

    // Other tests may claim a spot meanwhile; the page must show a count the API gave during the load.
    const shown = await promo.getByText(/discounts remaining|All promo spots have been claimed!/).textContent();
    if (before.remainingCount === 0) {
      expect(shown).toBe('All promo spots have been claimed!');
      return;
    }
    const match = /^(\d+) of (\d+) discounts remaining$/.exec(shown ?? '');
    expect(match, `unexpected promo text: ${shown}`).not.toBeNull();
    const remaining = Number(match?.[1]);
    expect(Number(match?.[2])).toBe(before.limitCount);
    expect(remaining).toBeLessThanOrEqual(before.remainingCount);
    expect(remaining).toBeGreaterThanOrEqual(after.remainingCount);
  });

  test('a failed promo load shows the error and a retry, never a number', async ({ page }) => {
    let failing = true;
    await page.route('**/api/promo', (route) =>
      failing
        ? route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'Promo counter unavailable.' } } })
        : route.fallback(),
    );
    await page.goto('/');
    const promo = page.getByRole('region', { name: /50% off product fees/ });
    await expect(promo.getByText('Promo counter unavailable.')).toBeVisible();
    await expect(promo.getByText(/discounts remaining/)).toHaveCount(0);
    failing = false;
    await promo.getByRole('button', { name: 'Retry' }).click();
    await expect(promo.getByText(/discounts remaining|All promo spots have been claimed!/)).toBeVisible();
  });
});

test('FAQ search with no match says "No results found"', async ({ page }) => {
  await page.goto('/faq');
  const search = page.getByLabel('Search the FAQ');
  await search.fill('fees');
  await expect(page.getByRole('heading', { name: 'What fees does PayWeave charge?' })).toBeVisible();
  await search.fill('xylophone quasar');
  await expect(page.getByRole('heading', { name: 'No results found' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByRole('heading', { name: 'No results found' })).toHaveCount(0);
});

test('an unknown path lands on the home page', async ({ page }) => {
  await page.goto('/no-such-page/at-all');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: /Combine your payment sources/ })).toBeVisible();
});

test.describe('support form', () => {
  test('shows its errors when submitted empty, and only then', async ({ page }) => {
    await page.goto('/support');
    const form = page.getByRole('form', { name: 'Contact support' });
    await expect(form.getByText('Name is required')).toHaveCount(0);

    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await expect(form.getByText('Email is required')).toBeVisible();
    await expect(form.getByText('Message is required')).toBeVisible();
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Name')).toBeFocused();
  });

  test('checks the e-mail once the field was left, and says plainly that demo mode sends nothing', async ({
    page,
    request,
  }) => {
    const config = (await (await request.get('/api/config')).json()) as PublicConfig;
    await page.goto('/support');
    const form = page.getByRole('form', { name: 'Contact support' });
    await form.getByLabel('E-mail').fill('not-an-email');
    await expect(form.getByText('Invalid email address')).toHaveCount(0);
    await form.getByLabel('E-mail').blur();
    await expect(form.getByText('Invalid email address')).toBeVisible();

    await form.getByLabel('Name').fill('Jane Doe');
    await form.getByLabel('E-mail').fill('jane@example.com');
    await form.getByLabel('Message').fill('Where can I see my card history?');
    await expect(form.getByText('Invalid email address')).toHaveCount(0);
    test.skip(!config.demoMode, 'live mode sends the message; covered by the support API tests');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Nothing was sent')).toBeVisible();
  });
});

test.describe('public header', () => {
  test('offers Login and Get Started, which reads Register on phones', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    await page.setViewportSize(VIEWPORTS.phone);
    await expect(header.getByRole('link', { name: 'Register' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Get Started' })).toHaveCount(0);
  });

  test('the skip link takes keyboard users to the main content', async ({ page }) => {
    await page.goto('/terms');
    await settle(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
  });
});

test.describe('accessibility', () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const path of PUBLIC_PAGES) {
      test(`axe finds no violations on ${path} (${device})`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto(path);
        await settle(page);
        const results = await new AxeBuilder({ page }).analyze();
        const summary = results.violations.map((violation) => ({
          rule: violation.id,
          impact: violation.impact,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        }));
        expect(summary).toEqual([]);
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      });
    }
  }
});

test.describe('first load', () => {
  test("the HTML for a page already asks for that page's chunk, and the page still works from it", async ({ page, request }) => {
    const html = await (await request.get('/login')).text();
    const preloaded = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloaded.some((href) => /\/assets\/LoginPage-[\w-]+\.js$/.test(href ?? ''))).toBe(true);
    for (const href of preloaded) expect((await request.get(href ?? '')).status(), href).toBe(200);

    const loaded: string[] = [];
    page.on('requestfinished', (r) => loaded.push(new URL(r.url()).pathname));
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Every preload was used by the page, not fetched for nothing (each file is requested once).
    for (const href of preloaded) expect(loaded.filter((p) => p === href)).toHaveLength(1);
  });
});
