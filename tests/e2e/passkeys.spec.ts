import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { CDPSession, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { cardWithBalance, signUp } from './fixtures';

// Passkeys end to end (docs/decisions/090), on Chromium's virtual authenticator (CDP
// WebAuthn domain: a CTAP2 platform authenticator with resident keys and user verification, as
// a phone's or a laptop's): add a passkey in Settings → Security, sign out, sign in with it and
// no password, confirm a card reveal with it, remove it. At 1280 and 375 px, with axe and no
// sideways scroll on every new screen; screenshots of them go to test-results/passkeys.

const SIZES = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: 'phone', width: 375, height: 812 },
] as const;
const SHOTS = path.join('test-results', 'passkeys');

async function expectNoSidewaysScroll(page: Page, where: string) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth, `${where}: page is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
}

async function expectAxeClean(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

async function checkScreen(page: Page, where: string, shot: string) {
  await expectNoSidewaysScroll(page, where);
  await expectAxeClean(page, where);
  await page.screenshot({ path: path.join(SHOTS, `${shot}.png`), fullPage: true });
}

/** Chromium's virtual authenticator: a platform authenticator that keeps passkeys and verifies its user. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Account menu' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

for (const size of SIZES) {
  test(`passkeys at ${size.width} px: add in settings, sign in without a password, confirm a card reveal, remove`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: size.width, height: size.height });
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const email = await signUp(page, { label: 'passkey', origin: baseURL ?? '' });
    const { card } = await cardWithBalance(page.request, '75', { headers: { origin: baseURL ?? '' } });

    // Settings → Security: no passkey yet.
    await page.goto('/settings?tab=security');
    const panel = page.getByRole('region', { name: 'Passkeys' });
    await expect(panel.getByText('You have no passkeys yet.')).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await checkScreen(page, 'the passkeys panel, empty', `${size.label}-settings-empty`);

    // Add one: a name, then the device's prompt (the virtual authenticator answers).
    await panel.getByRole('button', { name: 'Add a passkey' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await expect(addDialog).toBeVisible();
    await addDialog.getByRole('button', { name: 'Continue' }).click();
    await expect(addDialog.getByText('Please give this passkey a name')).toBeVisible();
    await checkScreen(page, 'the add-a-passkey dialog', `${size.label}-add-dialog`);
    await addDialog.getByRole('textbox', { name: 'Passkey name' }).fill('This laptop');
    await addDialog.getByRole('button', { name: 'Continue' }).click();
    await expect(addDialog).toBeHidden();
    const item = panel.getByRole('listitem').filter({ hasText: 'This laptop' });
    await expect(item).toBeVisible();
    await expect(item.getByText(/Added .* · Never used/)).toBeVisible();
    await checkScreen(page, 'the passkeys panel with one passkey', `${size.label}-settings-one`);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // Sign out, then in with the passkey: no e-mail, no password.
    await signOut(page);
    const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
    await expect(passkeyButton).toBeVisible();
    await checkScreen(page, 'the sign-in page with the passkey button', `${size.label}-login`);
    await passkeyButton.click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const me = await page.request.get('/api/me');
    expect((await me.json()).email).toBe(email);

    // The card reveal asks who you are again (the server's five-minute rule is proven by the API
    // tests; here the first answer says the password is too old, as cards.spec.ts does) and the
    // passkey answers for real: the server checks its signature and replaces the session.
    let askedOnce = false;
    await page.route(`**/api/cards/${card.id}/reveal`, (route) => {
      if (askedOnce) return route.fallback();
      askedOnce = true;
      return route.fulfill({ status: 403, json: { error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } } });
    });
    await page.goto('/my-cards?view=list');
    await page.getByRole('button', { name: `View Full Details of card ending ${card.last4}` }).click();
    const cardDialog = page.getByRole('dialog', { name: `Card ending ${card.last4}` });
    await cardDialog.getByRole('button', { name: 'Reveal card details' }).click();
    const usePasskey = cardDialog.getByRole('button', { name: 'Use a passkey instead' });
    await expect(usePasskey).toBeVisible();
    await checkScreen(page, 'the reveal asking for a password or a passkey', `${size.label}-reveal-reauth`);
    const sessionBefore = (await page.context().cookies()).find((c) => c.name === 'pw_session')?.value;
    await usePasskey.click();
    const details = cardDialog.getByRole('region', { name: 'Card details' });
    await expect(details.getByText(/^\d{4} \d{4} \d{4} \d{4}$/)).toBeVisible();
    const sessionAfter = (await page.context().cookies()).find((c) => c.name === 'pw_session')?.value;
    expect(sessionAfter).toBeTruthy();
    expect(sessionAfter).not.toBe(sessionBefore);
    await cardDialog.getByRole('button', { name: 'Close' }).click();

    // Remove it, after a confirmation; the list says when it was last used first.
    await page.goto('/settings?tab=security');
    await expect(item.getByText(/Last used/)).toBeVisible();
    await item.getByRole('button', { name: 'Remove This laptop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove “This laptop”?' });
    await expect(confirm).toBeVisible();
    await checkScreen(page, 'the remove confirmation', `${size.label}-remove-confirm`);
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(confirm).toBeHidden();
    await expect(panel.getByText('You have no passkeys yet.')).toBeVisible();
  });
}
