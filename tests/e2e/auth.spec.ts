import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// Accounts end to end: register → dashboard → logout → login with remember-me →
// reset through the demo mailbox → login with the new password; a protected page while signed
// out comes back after sign-in; settings; the forms' messages; axe on every account screen.

const PASSWORD = 'Sturdy-Pass-2026';
const NEW_PASSWORD = 'Brand-New-Pass-77';
const DAY_MS = 24 * 60 * 60 * 1000;

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Creates an account through the API (rate-limited per IP: waits out a 429). */
async function createAccount(request: APIRequestContext, baseURL: string | undefined, email: string, password = PASSWORD) {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const response = await request.post('/api/auth/register', {
      data: { email, password, confirmPassword: password, acceptTerms: true },
      headers: { origin: baseURL ?? '' },
    });
    if (response.status() !== 429) {
      expect(response.status(), await response.text()).toBe(201);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20_000));
  }
  throw new Error('registration stayed rate-limited');
}

async function expectAxeClean(page: Page, where: string) {
  // Toasts come and go while axe runs; the UI kit's own checks cover them.
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

async function signIn(page: Page, email: string, password: string, options: { remember?: boolean } = {}) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  if (options.remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

function toast(page: Page, text: string) {
  return page.locator('.toast').filter({ hasText: text });
}

test.describe('accounts', () => {
  test('register → dashboard → logout → login with remember-me → reset via the mailbox → login with the new password', async ({ page, context }) => {
    const email = uniqueEmail('journey');

    // Register.
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: /I accept the Terms of Service/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();

    // Dashboard with the plan card and the e-mail.
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, 'Account created successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('main').getByText(email)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your plan' }).getByText('Free Plan')).toBeVisible();

    // Logout.
    await page.getByRole('navigation', { name: 'Account menu' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, 'Successfully logged out')).toBeVisible();
    expect((await context.cookies()).find((c) => c.name === 'pw_session')).toBeUndefined();

    // Login with remember-me: a persistent cookie of 30 days, HttpOnly, SameSite=Lax.
    await signIn(page, email, PASSWORD, { remember: true });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, 'Logged in successfully!')).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === 'pw_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 29 * DAY_MS);

    await page.getByRole('navigation', { name: 'Account menu' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // Forgot password: the request, then 'Check your email'.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/reset-password$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
    await expect(toast(page, 'Password reset email sent')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try another email' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to login' })).toBeVisible();

    // The demo mailbox holds the e-mail; its link opens the new-password page.
    await page.getByRole('link', { name: 'demo mailbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Demo mailbox' })).toBeVisible();
    const message = page.getByRole('article').filter({ hasText: email }).filter({ hasText: 'Reset your PayWeave password' }).first();
    await message.getByRole('link', { name: /reset-password\/confirm\?token=/ }).click();
    await expect(page).toHaveURL(/\/reset-password\/confirm\?token=[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    const resetUrl = page.url();

    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await expect(page.getByText('One uppercase letter')).toBeVisible();
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, 'Password updated successfully')).toBeVisible();

    // The old password no longer works, the new one does.
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' })).toBeVisible();
    await expect(toast(page, 'Failed to log in')).toBeVisible();
    await signIn(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);

    // The link was single-use.
    await page.goto(resetUrl);
    await page.getByLabel(/^New password/).fill('Another-Pass-99');
    await page.getByLabel('Confirm new password').fill('Another-Pass-99');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeVisible();
  });

  test('a protected page while signed out lands on /login and returns there after sign-in', async ({ page, request, baseURL }) => {
    const email = uniqueEmail('return');
    await createAccount(request, baseURL, email);
    await page.goto('/settings?tab=security');
    await expect(page).toHaveURL(/\/login\?next=%2Fsettings%3Ftab%3Dsecurity$/);
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/settings\?tab=security$/);
    await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();
  });

  test('sign-in never follows a "next" that leaves the site', async ({ page, request, baseURL }) => {
    const email = uniqueEmail('next');
    await createAccount(request, baseURL, email);
    await page.goto('/login?next=%2F%2Fevil.example%2Fsteal');
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('forms show the spec messages once a field is touched', async ({ page }) => {
    await page.goto('/register');
    const email = page.getByLabel('Email');
    // Untouched: no message yet.
    await expect(page.getByText('Email is required')).toHaveCount(0);
    await email.focus();
    await email.blur();
    await expect(page.getByText('Email is required')).toBeVisible();
    await email.fill('not-an-email');
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await page.getByLabel(/^Password/).fill('short');
    await page.getByLabel(/^Password/).blur();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await page.getByLabel(/^Password/).fill('longenough');
    await expect(page.getByText('Password must contain at least one uppercase letter, one lowercase letter, and one number')).toBeVisible();
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill('Something-Else-1');
    await page.getByLabel('Confirm password').blur();
    await expect(page.getByText('Passwords must match')).toBeVisible();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('You must accept the Terms of Service', { exact: true })).toBeVisible();
    await expectAxeClean(page, '/register with errors');

    // The terms and privacy links open in a new tab.
    const form = page.getByRole('form', { name: 'Create account' });
    for (const name of [/Terms of Service/, /Privacy Policy/]) {
      await expect(form.getByRole('link', { name })).toHaveAttribute('target', '_blank');
    }

    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expectAxeClean(page, '/login with errors');
  });

  test('settings: e-mail and password change, promotion status, the six tabs', async ({ page, baseURL }) => {
    const email = uniqueEmail('settings');
    await createAccount(page.request, baseURL, email);
    await page.goto('/settings');
    const tabs = page.getByRole('tablist', { name: 'Account settings' }).getByRole('tab');
    await expect(tabs).toHaveText(['Profile', 'Payout Methods', 'Subscription', 'Promotion Status', 'Security', 'Developers']);
    await expectAxeClean(page, '/settings profile');

    // Profile: a wrong current password is refused; the right one changes the e-mail.
    const newEmail = uniqueEmail('changed');
    await page.getByLabel('New email').fill(newEmail);
    await page.getByLabel('Current password').fill('Wrong-Pass-123');
    await page.getByRole('button', { name: 'Update email' }).click();
    // Said on the field it is about (and gone once the password is typed again), not in a notice that outlives the fix.
    await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Your current password is incorrect.')).toBeVisible();
    await expect(toast(page, 'Failed to update email')).toBeVisible();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Update email' }).click();
    await expect(toast(page, 'Email updated successfully')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Account menu' }).getByText(newEmail)).toBeVisible();

    // Promotion Status.
    await page.getByRole('tab', { name: 'Promotion Status' }).click();
    await expect(page.getByText('No promotion is active')).toBeVisible();
    await expectAxeClean(page, '/settings promotion');

    // Security: the live checklist and the spec's messages, then a change.
    await page.getByRole('tab', { name: 'Security' }).click();
    await expect(page).toHaveURL(/tab=security/);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel(/^New password/).fill('weakpass');
    await page.getByLabel(/^New password/).blur();
    await expect(page.getByText('New password does not meet all requirements')).toBeVisible();
    await expect(page.locator('.password-checklist li.is-met')).toHaveCount(2);
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await expect(page.locator('.password-checklist li.is-met')).toHaveCount(4);
    await page.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}x`);
    await page.getByLabel('Confirm new password').blur();
    await expect(page.getByText('New passwords do not match')).toBeVisible();
    await expectAxeClean(page, '/settings security with errors');
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(toast(page, 'Password updated successfully')).toBeVisible();
    await expect(page.getByLabel('Current password')).toHaveValue('');

    for (const name of ['Payout Methods', 'Subscription']) {
      await page.getByRole('tab', { name }).click();
      await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    }
    await expectAxeClean(page, '/settings subscription');

    // The new credentials work after signing out.
    await page.getByRole('navigation', { name: 'Account menu' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, newEmail, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('signed-in devices: ending a second browser’s session from Settings → Security sends it to /login at its next navigation', async ({ page, browser, baseURL }) => {
    const email = uniqueEmail('devices');
    await createAccount(page.request, baseURL, email);

    // A second browser (an iPhone, by its user agent) signs in to the same account.
    const phoneContext = await browser.newContext({
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    });
    try {
      const phone = await phoneContext.newPage();
      await phone.goto('/login');
      await signIn(phone, email, PASSWORD);
      await expect(phone).toHaveURL(/\/dashboard$/);

      // The first browser, on a 375 px phone screen, sees both; this one marked.
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto('/settings?tab=security');
      const devices = page.getByRole('list', { name: 'Your signed-in devices' });
      await expect(devices.getByRole('listitem')).toHaveCount(2);
      const thisDevice = devices.getByRole('listitem').filter({ hasText: 'This device' });
      await expect(thisDevice).toContainText('Chrome on Linux');
      await expect(thisDevice.getByRole('button')).toHaveCount(0);
      await expect(devices.getByRole('listitem').filter({ hasText: 'Safari on iPhone' })).toContainText('Last active');
      const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(scrollWidth, 'no sideways scroll at 375 px').toBeLessThanOrEqual(clientWidth);
      await expectAxeClean(page, '/settings security, signed-in devices');

      // Sign out the phone, after a confirmation (signed in a moment ago: no password asked).
      await page.getByRole('button', { name: 'Sign out Safari on iPhone' }).click();
      const confirm = page.getByRole('dialog', { name: 'Sign out Safari on iPhone?' });
      await expect(confirm).toContainText('This device stays signed in.');
      await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity).map((animation) => animation.finished)));
      await expectAxeClean(page, '/settings security, sign out a device');
      await confirm.getByRole('button', { name: 'Sign out device' }).click();
      await expect(toast(page, 'Signed out Safari on iPhone')).toBeVisible();
      await expect(devices.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByText('No other device is signed in.')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Signed-in devices' })).toBeFocused();
      // Recent security activity (decision 166) tells the story: the phone's sign-in, then its end.
      const activity = page.getByRole('list', { name: 'Your recent security activity' });
      await expect(activity.getByRole('listitem').first()).toContainText('Another device signed out');
      await expect(activity.getByRole('listitem').filter({ hasText: 'Signed in' })).toHaveCount(1);
      await expectAxeClean(page, '/settings security, recent activity');

      // The phone's next navigation (inside the app, no reload) lands on /login, with the way back.
      await phone.getByRole('navigation', { name: 'Account menu' }).getByRole('link', { name: 'My Cards' }).click();
      await expect(phone).toHaveURL(/\/login\?next=%2Fmy-cards$/);
      await expect(phone.getByRole('heading', { level: 1 })).toBeVisible();
      expect((await phoneContext.cookies()).find((c) => c.name === 'pw_session')).toBeUndefined();
      // The first browser is still signed in.
      await page.reload();
      await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();
    } finally {
      await phoneContext.close();
    }
  });

  test('closing the account: a confirmation, then the landing page, and the same e-mail and password sign in no more', async ({ page, baseURL }) => {
    const email = uniqueEmail('closing');
    await createAccount(page.request, baseURL, email);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/settings');
    const panel = page.getByRole('region', { name: 'Close account' });
    await expect(panel).toContainText('Cash out or spend the money left on your cards first.');
    const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(scrollWidth, 'no sideways scroll at 375 px').toBeLessThanOrEqual(clientWidth);
    await expectAxeClean(page, '/settings profile, close account');

    // Signed up a moment ago: the password was entered within 5 minutes, so none is asked.
    await panel.getByRole('button', { name: 'Close account' }).click();
    const confirm = page.getByRole('dialog', { name: 'Close your account?' });
    await expect(confirm).toContainText('You cannot reopen it yourself.');
    await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity).map((animation) => animation.finished)));
    await expectAxeClean(page, '/settings, close account confirmation');
    await confirm.getByRole('button', { name: 'Close my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page, 'Your account is closed.')).toBeVisible();
    expect((await page.context().cookies()).find((c) => c.name === 'pw_session')).toBeUndefined();

    // A protected page asks to sign in, and the old password opens nothing.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test('axe finds nothing on the account pages', async ({ page, baseURL }) => {
    for (const path of ['/login', '/register', '/reset-password', '/reset-password/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/reset-password/confirm', '/dev/mailbox', '/unlock-two-factor?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/unlock-two-factor']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectAxeClean(page, path);
    }
    await page.goto('/reset-password');
    await page.getByLabel('Email').fill(uniqueEmail('axe'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
    await expectAxeClean(page, '/reset-password sent');

    await createAccount(page.request, baseURL, uniqueEmail('axe-dash'));
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expectAxeClean(page, '/dashboard');
  });
});
