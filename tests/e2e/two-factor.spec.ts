import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { base32Decode, totp, totpStep } from '../../src/server/lib/totp';

// Two-factor sign-in end to end (docs/decisions/014): turn it on in Settings → Security with a
// code computed here by the same TOTP function as the server, save the recovery codes, sign out,
// sign in with a code from the "app", then with a recovery code; axe on the panel and the step.

const PASSWORD = 'Sturdy-Pass-2026';
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function expectAxeClean(page: Page, where: string, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport');
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

/** Waits until the authenticator would show a code of a later step than `usedStep` (codes work once). */
async function nextCode(secret: Buffer, usedStep: number): Promise<{ code: string; step: number }> {
  while (totpStep(Date.now()) <= usedStep) await new Promise((resolve) => setTimeout(resolve, 250));
  const now = Date.now();
  return { code: totp(secret, now), step: totpStep(now) };
}

async function logout(page: Page) {
  await page.getByRole('navigation', { name: 'Account menu' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function passwordStep(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const heading = page.getByRole('heading', { level: 1, name: 'Two-factor authentication' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
}

test('turn on two-factor in settings, then sign in with a code and with a recovery code', async ({ page, baseURL }) => {
  // Two sign-ins may each wait for the next 30-second code.
  test.setTimeout(150_000);
  const email = uniqueEmail('two-factor');
  const registered = await page.request.post('/api/auth/register', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
    headers: { origin: baseURL ?? '' },
  });
  expect(registered.status(), await registered.text()).toBe(201);

  // Settings → Security: the panel says it is off.
  await page.goto('/settings?tab=security');
  const panel = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(panel.getByText('Off', { exact: true })).toBeVisible();
  await expectAxeClean(page, 'the two-factor panel (off)', '.two-factor-panel');
  await panel.getByRole('button', { name: 'Turn on two-factor authentication' }).click();

  // The key in groups and the otpauth link as text; focus on the step's heading.
  const setupHeading = panel.getByRole('heading', { name: 'Add PayWeave to your authenticator app' });
  await expect(setupHeading).toBeFocused();
  const shownKey = (await panel.locator('.two-factor-secret').textContent()) ?? '';
  expect(shownKey).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const secretBase32 = shownKey.replace(/\s/g, '');
  await expect(panel.locator('.two-factor-uri')).toHaveText(
    `otpauth://totp/PayWeave:${encodeURIComponent(email)}?issuer=PayWeave&secret=${secretBase32}&algorithm=SHA1&digits=6&period=30`,
  );
  await expectAxeClean(page, 'the two-factor setup step', '.two-factor-panel');
  const secret = base32Decode(secretBase32);

  // A wrong code is refused with a clear message.
  await panel.getByLabel(/^Authentication code/).fill('000000');
  await panel.getByRole('button', { name: 'Verify and turn on' }).click();
  const wrongWhileEnabling = totp(secret, Date.now()) === '000000';
  if (!wrongWhileEnabling) await expect(panel.getByRole('alert').filter({ hasText: 'Invalid authentication code' })).toBeVisible();

  // The code of "the app" turns it on.
  const enabling = { code: totp(secret, Date.now()), step: totpStep(Date.now()) };
  await panel.getByLabel(/^Authentication code/).fill(enabling.code);
  await panel.getByRole('button', { name: 'Verify and turn on' }).click();
  const codesHeading = panel.getByRole('heading', { name: 'Save your recovery codes' });
  await expect(codesHeading).toBeFocused();
  const codes = await panel.getByRole('list', { name: 'Recovery codes' }).locator('code').allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){6}$/);
  await expect(panel.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  await expectAxeClean(page, 'the recovery codes step', '.two-factor-panel');

  // Done needs the confirmation.
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(panel.getByText('Confirm that you have saved your recovery codes')).toBeVisible();
  await panel.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(panel.getByRole('heading', { name: 'Two-factor authentication' })).toBeFocused();
  await expect(panel.getByText('On', { exact: true })).toBeVisible();
  await expect(panel.getByText('10 of 10 recovery codes left.')).toBeVisible();
  await expectAxeClean(page, 'the two-factor panel (on)', '.two-factor-panel');

  // Sign out; the password alone no longer signs in.
  await logout(page);
  await passwordStep(page, email);
  expect((await page.context().cookies()).find((c) => c.name === 'pw_session')).toBeUndefined();
  await expectAxeClean(page, 'the sign-in code step');

  await page.getByLabel(/^Authentication code/).fill('12345');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app', { exact: true })).toBeVisible();

  // The code of the next step (the enabling one was used) signs in.
  const signIn = await nextCode(secret, enabling.step);
  await page.getByLabel(/^Authentication code/).fill(signIn.code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('.toast').filter({ hasText: 'Logged in successfully!' })).toBeVisible();

  // And once more with a recovery code instead.
  await logout(page);
  await passwordStep(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  const recoveryHeading = page.getByRole('heading', { level: 1, name: 'Use a recovery code' });
  await expect(recoveryHeading).toBeFocused();
  await page.getByLabel(/^Recovery code/).fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/settings?tab=security');
  await expect(page.getByRole('region', { name: 'Two-factor authentication' }).getByText('9 of 10 recovery codes left.')).toBeVisible();
});
