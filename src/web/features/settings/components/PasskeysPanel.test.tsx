import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { PASSKEY_MESSAGES } from '../../../../contracts/passkeys';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { PasskeysPanel } from './PasskeysPanel';

const laptop = { id: '7d0c3a52-2a8e-4a44-9c57-6f1f1c1f0a01', name: 'Work laptop', createdAt: '2026-11-02T10:00:00.000Z', lastUsedAt: null, backedUp: false };
const phone = { id: '7d0c3a52-2a8e-4a44-9c57-6f1f1c1f0a02', name: 'Phone', createdAt: '2026-11-03T10:00:00.000Z', lastUsedAt: '2026-11-20T08:00:00.000Z', backedUp: true };
const reauthRequired = { status: 403, body: { error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } } };

describe('Settings → Security → Passkeys (decision 090)', () => {
  it('lists each passkey with when it was added and last used, and whether it is synced', async () => {
    fakeApi({ 'GET /api/me/passkeys': { body: { passkeys: [laptop, phone] } } });
    renderPage(<PasskeysPanel />);
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Work laptop'),
      expect.stringContaining('Phone'),
    ]);
    expect(items[0]!.textContent).toContain('Added Nov 2, 2026 · Never used');
    expect(items[1]!.textContent).toContain('Last used Nov 20, 2026');
    expect(within(items[1]!).getByText('Synced')).toBeVisible();
    expect(within(items[0]!).queryByText('Synced')).toBeNull();
  });

  it('says when there is none; a browser without WebAuthn is told it cannot create one', async () => {
    fakeApi({ 'GET /api/me/passkeys': { body: { passkeys: [] } } });
    renderPage(<PasskeysPanel />);
    expect(await screen.findByText('You have no passkeys yet.')).toBeVisible();
    expect(screen.getByText('This browser cannot create passkeys.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it('removes after a confirmation, asking for the password first when it is not recent, then retrying', async () => {
    let deletes = 0;
    let passkeys = [laptop];
    const api = fakeApi({
      'GET /api/me/passkeys': () => ({ body: { passkeys } }),
      'DELETE /api/me/passkeys/*': () => {
        deletes += 1;
        if (deletes === 1) return reauthRequired;
        passkeys = [];
        return { status: 204 };
      },
      'POST /api/auth/reauthenticate': { status: 204 },
    });
    const { user } = renderPage(<PasskeysPanel />);
    await user.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove “Work laptop”?' });
    expect(confirm.textContent).toContain('Your password keeps working.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));

    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await fill(user, within(reauth).getByLabelText(/^Password/), 'Sturdy-Pass-2026');
    await user.click(within(reauth).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('You have no passkeys yet.')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/auth/reauthenticate')).toEqual([{ password: 'Sturdy-Pass-2026' }]);
    expect(deletes).toBe(2);
  });

  it('shows the server’s refusal to remove the last way to sign in, and keeps the passkey', async () => {
    fakeApi({
      'GET /api/me/passkeys': { body: { passkeys: [laptop] } },
      'DELETE /api/me/passkeys/*': { status: 409, body: { error: { code: 'last_sign_in_method', message: PASSKEY_MESSAGES.lastSignInMethod } } },
    });
    const { user } = renderPage(<PasskeysPanel />);
    await user.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove “Work laptop”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(confirm).findByRole('alert')).toHaveProperty('textContent', PASSKEY_MESSAGES.lastSignInMethod);
    // Still listed (behind the dialog, so hidden from the accessibility tree for now).
    expect(screen.getByRole('button', { name: 'Remove Work laptop', hidden: true })).toBeVisible();
  });

  it('renames: the field starts with the current name, an empty name is refused', async () => {
    const api = fakeApi({
      'GET /api/me/passkeys': { body: { passkeys: [laptop] } },
      'PATCH /api/me/passkeys/*': ({ body }) => ({ body: { ...laptop, name: (body as { name: string }).name } }),
    });
    const { user } = renderPage(<PasskeysPanel />);
    await user.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename passkey' });
    const field = within(dialog).getByLabelText(/^Passkey name/) as HTMLInputElement;
    expect(field.value).toBe('Work laptop');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining(PASSKEY_MESSAGES.nameRequired)));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await fill(user, field, 'Home desktop');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf('PATCH', `/api/me/passkeys/${laptop.id}`)).toEqual([{ name: 'Home desktop' }]));
  });
});
