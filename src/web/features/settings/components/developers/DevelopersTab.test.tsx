import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { WebhookDelivery, WebhookEndpoint } from '../../../../../contracts/webhooks';
import { fakeApi, renderPage } from '../../../../test/render';
import { fill } from '../../../../test/user';
import { DevelopersTab } from './DevelopersTab';

// Settings → Developers (docs/rules.md#webhooks): endpoints, the secret shown once, the delivery log.

const ID = '6b0b4a4e-0000-4000-8000-0000000000e1';
const endpoint: WebhookEndpoint = { id: ID, url: 'https://hooks.example.com/payweave', status: 'enabled', disabledReason: null, createdAt: '2026-11-28T10:00:00.000Z', previousSecretValidUntil: null };
const SECRET = 'whsec_c2VjcmV0LXNob3duLW9uY2UtYW5kLW5ldmVyLWFnYWlu';

describe('Settings → Developers', () => {
  it('a disabled endpoint says why in words, and cannot be sent a test event', async () => {
    fakeApi({
      'GET /api/webhooks': {
        body: { endpoints: [{ ...endpoint, status: 'disabled', disabledReason: 'gone' }, { ...endpoint, id: `${ID.slice(0, -1)}2`, url: 'https://b.example.com/h', status: 'disabled', disabledReason: 'failing_too_long' }] },
      },
    });
    renderPage(<DevelopersTab />, { path: '/settings' });
    expect(await screen.findByText('Disabled: the receiver answered 410 Gone')).toBeVisible();
    expect(screen.getByText('Disabled: every delivery failed for 5 days')).toBeVisible();
    expect(screen.getByRole('button', { name: `Send test event to ${endpoint.url}` })).toBeDisabled();
  });

  it('adding an endpoint shows its secret once, with a copy button and the verification hint; closing it leaves no secret on the page', async () => {
    let listed: WebhookEndpoint[] = [];
    const api = fakeApi({
      'GET /api/webhooks': () => ({ body: { endpoints: listed } }),
      'POST /api/webhooks': () => {
        listed = [endpoint];
        return { status: 201, body: { ...endpoint, secret: SECRET } };
      },
    });
    const { user } = renderPage(<DevelopersTab />, { path: '/settings' });
    expect(await screen.findByText('You have no webhook endpoints yet.')).toBeVisible();
    await fill(user, screen.getByLabelText(/^Endpoint URL/), endpoint.url);
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Endpoint added: its signing secret' });
    expect(dialog).toHaveAccessibleDescription('Copy it now: it will not be shown again.');
    expect(within(dialog).getByLabelText('Signing secret')).toHaveValue(SECRET);
    expect(within(dialog).getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/api/docs');
    expect(dialog.textContent).toContain('standardwebhooks');
    await user.click(within(dialog).getByRole('button', { name: 'Copy signing secret' }));
    // user-event puts its own clipboard on navigator: what was copied can be read back.
    await expect(navigator.clipboard.readText()).resolves.toBe(SECRET);
    expect(await screen.findByText('Signing secret copied')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('listitem', { name: endpoint.url })).toBeVisible();
    expect(document.body.textContent).not.toContain(SECRET);
    expect(api.bodiesOf('POST', '/api/webhooks')).toEqual([{ url: endpoint.url }]);
  });

  it("the server's refusal of the URL is shown on the field; the 5-endpoint limit above the button", async () => {
    const refused = 'That address is private (10.0.0.0/8): only public addresses can receive webhooks.';
    let answer = { status: 400, body: { error: { code: 'validation_error', message: refused, details: [{ path: '/url', message: refused }] } } };
    fakeApi({ 'GET /api/webhooks': { body: { endpoints: [] } }, 'POST /api/webhooks': () => answer });
    const { user } = renderPage(<DevelopersTab />, { path: '/settings' });
    const field = await screen.findByLabelText(/^Endpoint URL/);
    await fill(user, field, 'http://10.0.0.1/hook');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining(refused)));
    expect(field).toHaveAttribute('aria-invalid', 'true');

    const limit = 'You can register up to 5 webhook endpoints. Delete one to add another.';
    answer = { status: 409, body: { error: { code: 'webhook_endpoint_limit_reached', message: limit, details: [] } } };
    await user.clear(field);
    await fill(user, field, 'https://sixth.example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(limit);
  });

  it('rotating asks first, then shows the new secret once; deleting asks first and takes the row away', async () => {
    let listed = [endpoint];
    const api = fakeApi({
      'GET /api/webhooks': () => ({ body: { endpoints: listed } }),
      [`POST /api/webhooks/${ID}/rotate-secret`]: () => {
        listed = [{ ...endpoint, previousSecretValidUntil: '2026-11-29T10:00:00.000Z' }];
        return { body: { ...listed[0], secret: SECRET } };
      },
      [`DELETE /api/webhooks/${ID}`]: () => {
        listed = [];
        return { status: 204 };
      },
    });
    const { user } = renderPage(<DevelopersTab />, { path: '/settings' });
    await user.click(await screen.findByRole('button', { name: `Rotate secret of ${endpoint.url}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(confirm.textContent).toContain('keeps signing for 24 hours');
    await user.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(shown).getByLabelText('Signing secret')).toHaveValue(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(await screen.findByText(/The previous secret also signs until/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: `Delete ${endpoint.url}` }));
    const ask = await screen.findByRole('dialog', { name: 'Delete this endpoint?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('You have no webhook endpoints yet.')).toBeVisible();
    expect(api.sent.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('Send test event opens the delivery log: each attempt with its status, duration and the answer; Resend queues the event again', async () => {
    const delivered: WebhookDelivery = {
      id: 'd1', eventId: 'evt_test1', eventType: 'webhook.test', status: 'delivered', createdAt: '2026-11-28T10:05:00.000Z', nextAttemptAt: null,
      attempts: [
        { at: '2026-11-28T10:05:01.000Z', status: 200, durationMs: 42, responseStart: 'ok', error: null },
        { at: '2026-11-28T10:05:00.000Z', status: null, durationMs: 15000, responseStart: '', error: 'Timed out after 15 s' },
      ],
    };
    const api = fakeApi({
      'GET /api/webhooks': { body: { endpoints: [endpoint] } },
      [`POST /api/webhooks/${ID}/test`]: { status: 202, body: { deliveryId: 'd1', eventId: 'evt_test1' } },
      [`GET /api/webhooks/${ID}/deliveries`]: { body: { deliveries: [delivered] } },
      [`POST /api/webhooks/${ID}/events/evt_test1/resend`]: { status: 202, body: { deliveryId: 'd2', eventId: 'evt_test1' } },
    });
    const { user } = renderPage(<DevelopersTab />, { path: '/settings' });
    const toggle = await screen.findByRole('button', { name: `Delivery log of ${endpoint.url}` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(screen.getByRole('button', { name: `Send test event to ${endpoint.url}` }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'true'));
    const delivery = await screen.findByRole('listitem', { name: 'webhook.test, Delivered' });
    const attempts = within(delivery).getAllByRole('listitem');
    expect(attempts[0]!.textContent).toContain('HTTP 200 · 42 ms');
    expect(within(attempts[0]!).getByText('ok').tagName).toBe('PRE');
    expect(attempts[1]!.textContent).toContain('Timed out after 15 s · 15000 ms');
    await user.click(within(delivery).getByRole('button', { name: 'Resend webhook.test event' }));
    expect(await screen.findByText('Event queued again: see the delivery log.')).toBeVisible();
    expect(api.sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/webhooks/${ID}/test`, `/api/webhooks/${ID}/events/evt_test1/resend`]);
  });

  it("a pending delivery says when it is tried next; a failed attempt shows the receiver's status and only the start of a long answer", async () => {
    const longAnswer = `<html>${'x'.repeat(1000)}</html>`;
    const pending: WebhookDelivery = {
      id: 'd3', eventId: 'evt_p', eventType: 'cashout.created', status: 'pending', createdAt: '2026-11-28T10:05:00.000Z', nextAttemptAt: '2026-11-28T10:10:05.000Z',
      attempts: [{ at: '2026-11-28T10:05:05.000Z', status: 500, durationMs: 87, responseStart: longAnswer, error: null }],
    };
    fakeApi({ 'GET /api/webhooks': { body: { endpoints: [endpoint] } }, [`GET /api/webhooks/${ID}/deliveries`]: { body: { deliveries: [pending] } } });
    const { user } = renderPage(<DevelopersTab />, { path: '/settings' });
    await user.click(await screen.findByRole('button', { name: `Delivery log of ${endpoint.url}` }));
    const delivery = await screen.findByRole('listitem', { name: 'cashout.created, Pending' });
    expect(delivery.textContent).toMatch(/Next attempt [A-Z][a-z]{2} \d{1,2}, 2026/);
    expect(delivery.textContent).toContain('HTTP 500 · 87 ms');
    const shown = delivery.querySelector('pre')!.textContent!;
    expect(shown.length).toBeLessThan(longAnswer.length);
    expect(shown.endsWith('…')).toBe(true);
  });
});
