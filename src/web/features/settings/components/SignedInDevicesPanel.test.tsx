import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { SESSION_MESSAGES, type SignedInSession } from '../../../../contracts/sessions';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { SignedInDevicesPanel } from './SignedInDevicesPanel';

const laptop: SignedInSession = {
  id: '0b5a3c52-2a8e-4a44-9c57-6f1f1c1f0b01',
  createdAt: '2026-11-02T10:00:00.000Z',
  lastSeenAt: '2026-11-27T09:00:00.000Z',
  device: 'Chrome on Linux',
  ipAddress: '203.0.113.x',
  current: true,
};
const phone: SignedInSession = {
  id: '0b5a3c52-2a8e-4a44-9c57-6f1f1c1f0b02',
  createdAt: '2026-11-03T10:00:00.000Z',
  lastSeenAt: '2026-11-20T08:00:00.000Z',
  device: 'Safari on iPhone',
  ipAddress: '2001:db8:85a3:x:x:x:x:x',
  current: false,
};
const desktop: SignedInSession = {
  id: '0b5a3c52-2a8e-4a44-9c57-6f1f1c1f0b03',
  createdAt: '2026-11-04T10:00:00.000Z',
  lastSeenAt: '2026-11-19T08:00:00.000Z',
  device: 'Firefox on Windows',
  ipAddress: null,
  current: false,
};
const reauthRequired = { status: 403, body: { error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } } };

/** A fake server holding `sessions`: the list answers what is left of them. */
function devicesApi(initial: SignedInSession[], routes: Parameters<typeof fakeApi>[0] = {}) {
  const state = { sessions: initial };
  const api = fakeApi({ 'GET /api/me/sessions': () => ({ body: { sessions: state.sessions } }), 'GET /api/me/passkeys': { body: { passkeys: [] } }, ...routes });
  return { api, state };
}

describe('Settings → Security → Signed-in devices (decision 164)', () => {
  it('lists each device, this one marked and without a Sign out button, with its masked address and when it was active', async () => {
    devicesApi([laptop, phone, desktop]);
    renderPage(<SignedInDevicesPanel />);
    expect(screen.getByRole('status').textContent).toContain('Loading your signed-in devices');
    const list = await screen.findByRole('list', { name: 'Your signed-in devices' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.security-item-name')?.textContent?.trim())).toEqual(['Chrome on Linux This device', 'Safari on iPhone', 'Firefox on Windows']);

    expect(within(items[0]!).getByText('This device')).toBeVisible();
    expect(items[0]!.getAttribute('aria-current')).toBe('true');
    expect(items[0]!.textContent).toContain('203.0.113.x · Signed in Nov 2, 2026 · Active now');
    expect(within(items[0]!).queryByRole('button')).toBeNull();

    expect(items[1]!.textContent).toContain('2001:db8:85a3:x:x:x:x:x · Signed in Nov 3, 2026 · Last active Nov 20, 2026');
    expect(within(items[1]!).queryByText('This device')).toBeNull();
    const signOutPhone = within(items[1]!).getByRole('button', { name: 'Sign out Safari on iPhone' });
    expect(signOutPhone.getAttribute('aria-describedby')).toBe(`device-${phone.id}`);
    expect(items[2]!.textContent).toContain('Address unknown');
    expect(screen.getByRole('button', { name: 'Sign out all other devices' })).toBeVisible();
  });

  it('signs out one device after a confirmation, by keyboard: the device leaves the list, a toast says so, focus goes to the section', async () => {
    const { api, state } = devicesApi([laptop, phone], {
      'DELETE /api/me/sessions/*': () => {
        state.sessions = [laptop];
        return { status: 204 };
      },
    });
    const { user } = renderPage(<SignedInDevicesPanel />);
    (await screen.findByRole('button', { name: 'Sign out Safari on iPhone' })).focus();
    await user.keyboard('{Enter}');
    let confirm = await screen.findByRole('dialog', { name: 'Sign out Safari on iPhone?' });
    expect(confirm.textContent).toContain('Safari on iPhone (2001:db8:85a3:x:x:x:x:x) will have to sign in again');
    // Escape backs out without signing anything out.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent.filter((request) => request.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Sign out Safari on iPhone' }));
    confirm = await screen.findByRole('dialog', { name: 'Sign out Safari on iPhone?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Sign out device');
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Signed out Safari on iPhone')).toBeVisible();
    expect(api.sent.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([`/api/me/sessions/${phone.id}`]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign out Safari on iPhone' })).toBeNull());
    expect(screen.getByText('No other device is signed in.')).toBeVisible();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Signed-in devices' })));
  });

  it('signs out all other devices, asking for the password first when it is not recent, then retrying', async () => {
    let posts = 0;
    const { api, state } = devicesApi([laptop, phone, desktop], {
      'POST /api/me/sessions/sign-out-others': () => {
        posts += 1;
        if (posts === 1) return reauthRequired;
        state.sessions = [{ ...laptop, id: '0b5a3c52-2a8e-4a44-9c57-6f1f1c1f0b99' }];
        return { body: { ended: 2 } };
      },
      'POST /api/auth/reauthenticate': { status: 204 },
    });
    const { user } = renderPage(<SignedInDevicesPanel />);
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sign out all other devices?' });
    expect(confirm.textContent).toContain('This device stays signed in.');
    await user.click(within(confirm).getByRole('button', { name: 'Sign out other devices' }));

    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(reauth.textContent).toContain('before signing out your other devices');
    // An empty password is refused on the spot, with nothing sent.
    await user.click(within(reauth).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(within(reauth).getByLabelText(/^Password/)).toHaveAccessibleDescription(expect.stringContaining('Password is required')));
    await fill(user, within(reauth).getByLabelText(/^Password/), 'Sturdy-Pass-2026');
    await user.click(within(reauth).getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Signed out 2 other devices')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/auth/reauthenticate')).toEqual([{ password: 'Sturdy-Pass-2026' }]);
    expect(posts).toBe(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('No other device is signed in.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Sign out all other devices' })).toBeNull();
  });

  it('a wrong password keeps the dialog open with its message, on its field, and signs nothing out', async () => {
    const { api } = devicesApi([laptop, phone], {
      'DELETE /api/me/sessions/*': reauthRequired,
      'POST /api/auth/reauthenticate': { status: 400, body: { error: { code: 'wrong_password', message: 'Your password is incorrect.' } } },
    });
    const { user } = renderPage(<SignedInDevicesPanel />);
    await user.click(await screen.findByRole('button', { name: 'Sign out Safari on iPhone' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Sign out Safari on iPhone?' })).getByRole('button', { name: 'Sign out device' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    // The dialog opens on its field, and puts the focus back there with the error, where a screen reader reads it.
    const field = within(reauth).getByLabelText(/^Password/);
    await waitFor(() => expect(document.activeElement).toBe(field));
    await fill(user, field, 'Wrong-Pass-123');
    await user.click(within(reauth).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining('Your password is incorrect.')));
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(api.sent.filter((request) => request.method === 'DELETE')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Sign out Safari on iPhone', hidden: true })).toBeVisible();
  });

  it('a refusal shows an error toast with the server’s message, and the list is read again', async () => {
    let listed = 0;
    fakeApi({
      'GET /api/me/sessions': () => {
        listed += 1;
        return { body: { sessions: listed === 1 ? [laptop, phone] : [laptop] } };
      },
      'DELETE /api/me/sessions/*': { status: 404, body: { error: { code: 'not_found', message: SESSION_MESSAGES.notFound } } },
    });
    const { user } = renderPage(<SignedInDevicesPanel />);
    await user.click(await screen.findByRole('button', { name: 'Sign out Safari on iPhone' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Sign out Safari on iPhone?' })).getByRole('button', { name: 'Sign out device' }));
    expect(await screen.findByText(SESSION_MESSAGES.notFound)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign out Safari on iPhone' })).toBeNull());
    expect(listed).toBe(2);
  });

  it('says when the list cannot be loaded, and loads it again on request', async () => {
    let listed = 0;
    fakeApi({
      'GET /api/me/sessions': () => {
        listed += 1;
        return listed === 1 ? { status: 503, body: { error: { code: 'service_unavailable', message: 'PayWeave is temporarily unavailable. Please try again in a moment.' } } } : { body: { sessions: [laptop] } };
      },
    });
    const { user } = renderPage(<SignedInDevicesPanel />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('PayWeave is temporarily unavailable.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('This device')).toBeVisible();
    expect(screen.getByText('No other device is signed in.')).toBeVisible();
  });
});
