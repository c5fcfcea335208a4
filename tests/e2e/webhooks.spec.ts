import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { Webhook } from 'standardwebhooks';
import { cardWithBalance, ok, signUp } from './fixtures';

// Webhooks as a developer meets them (docs/rules.md#webhooks): in Settings → Developers a private
// address is refused on the field, then a receiver added (this test's own, on 127.0.0.1: the e2e
// server runs with WEBHOOKS_ALLOW_LOOPBACK), its secret read from the page once, a test event and a
// purchase each received and verified with the standardwebhooks package, and both in the
// endpoint's delivery log; at a desktop and a phone width, with axe.

async function expectAxeClean(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

type Received = { id: string; type: string; data: Record<string, unknown> };

/** A receiver that verifies every delivery with `secret` (set once the page shows it) and answers 200. */
async function startReceiver() {
  const verified: Received[] = [];
  const refused: string[] = [];
  const state = { secret: '' };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        verified.push(new Webhook(state.secret).verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>) as Received);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      } catch (error) {
        refused.push(String(error));
        response.writeHead(400).end('signature refused');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/payweave`, state, verified, refused, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a receiver added in Settings → Developers gets a verified test event and a purchase, both in its delivery log`, async ({ page }) => {
    const receiver = await startReceiver();
    try {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
      await signUp(page, { label: `webhooks-${width}` });
      await page.goto('/settings?tab=developers');
      await expect(page.getByRole('tab', { name: 'Developers' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByText('You have no webhook endpoints yet.')).toBeVisible();
      await expectAxeClean(page, `the Developers tab at ${width} px`);

      // An address inside a private network is refused by the server, on the field (docs/rules.md#webhook-addresses).
      const urlField = page.getByRole('textbox', { name: /^Endpoint URL/ });
      await urlField.fill('http://10.1.2.3/hook');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(urlField).toHaveAccessibleDescription(/This address points to a private network and cannot receive webhooks\./);
      await expect(urlField).toHaveAttribute('aria-invalid', 'true');
      await expect(urlField).toBeFocused();

      await urlField.fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const shown = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
      await expect(shown.getByText('Copy it now: it will not be shown again.')).toBeVisible();
      receiver.state.secret = await shown.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(receiver.state.secret).toMatch(/^whsec_/);
      await expectAxeClean(page, `the secret dialog at ${width} px`);
      await page.screenshot({ path: test.info().outputPath(`webhooks-secret-${width}.png`) });
      await shown.getByRole('button', { name: 'Done' }).click();
      await expect(shown).toBeHidden();

      const endpoint = page.getByRole('listitem', { name: receiver.url });
      await expect(endpoint.getByText('Enabled')).toBeVisible();
      await endpoint.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
      await expect.poll(() => receiver.verified.map((e) => e.type), { timeout: 10_000 }).toContain('webhook.test');
      expect(receiver.refused).toEqual([]);

      // The log opens after a test event; the attempt shows the receiver's 200 and its answer.
      await expect(endpoint.getByRole('button', { name: `Delivery log of ${receiver.url}` })).toHaveAttribute('aria-expanded', 'true');
      const testDelivery = endpoint.getByRole('listitem', { name: 'webhook.test, Delivered' });
      await expect(testDelivery.getByText(/HTTP 200 · \d+ ms/)).toBeVisible();
      await expect(testDelivery.locator('pre')).toHaveText('{"received":true}');

      // A purchase on a card: the receiver gets card.authorization.approved, and the log lists it.
      const { card } = await cardWithBalance(page.request, '50');
      await ok(await page.request.post(`/api/cards/${card.id}/purchases`, { data: { merchant: 'Corner Books', amountCents: 750 }, headers: { 'idempotency-key': randomUUID() } }));
      await expect.poll(() => receiver.verified.find((e) => e.type === 'card.authorization.approved')?.data, { timeout: 10_000 }).toMatchObject({ card: { id: card.id } });
      expect(receiver.refused).toEqual([]);
      const purchase = endpoint.getByRole('listitem', { name: 'card.authorization.approved, Delivered' });
      await expect(purchase.getByText(/HTTP 200 · \d+ ms/)).toBeVisible();
      await expect(purchase.getByRole('button', { name: 'Resend card.authorization.approved event' })).toBeEnabled();

      await expectAxeClean(page, `the delivery log at ${width} px`);
      await page.screenshot({ path: test.info().outputPath(`webhooks-developers-${width}.png`), fullPage: true });
      // Nothing wider than the screen: the URL, the log and the answers wrap.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    } finally {
      await receiver.close();
    }
  });
}
