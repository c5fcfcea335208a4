import { expect, test } from '@playwright/test';

// The API reference page renders the document in a real browser: the operations by tag, an
// operation opened with its parameters and responses, no CSP violation or console error, and
// not one request leaves our origin. It is the server's page, not the SPA's fallback.
test('the API reference at /api/docs renders the document from our origin only', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto('/api/docs');
  await expect(page).toHaveTitle('PayWeave API reference');
  // Swagger UI parses its bundle and the whole document before it draws anything: on a slow two-core
  // host with both test workers busy that took 10–19 s (CI, 2026-11-26), past the 10 s default.
  await expect(page.locator('.swagger-ui .info .title')).toContainText('PayWeave API', { timeout: 30_000 });
  // Every tag is a section; the cards section lists its operations.
  for (const tag of ['auth', 'combines', 'cards', 'cashouts']) await expect(page.locator(`#operations-tag-${tag}`)).toBeVisible();
  const listCards = page.locator('#operations-cards-getCards');
  await expect(listCards).toBeVisible();
  await listCards.locator('.opblock-summary').first().click();
  await expect(listCards.getByText('The signed-in user’s cards, newest first (masked numbers only)').first()).toBeVisible();
  await expect(listCards.locator('.responses-table')).toContainText('401');
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: test.info().outputPath('api-docs.png'), fullPage: false });

  expect(foreign).toEqual([]);
  expect(problems).toEqual([]);
});
