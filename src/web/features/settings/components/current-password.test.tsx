import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { profileFixture } from '../../../test/fixtures';
import { ProfileTab } from './ProfileTab';
import { SecurityTab } from './SecurityTab';

const wrong = { status: 400, body: { error: { code: 'wrong_password', message: 'Your current password is incorrect.' } } };

describe('a wrong current password (Settings → Profile and Security)', () => {
  it('changing the e-mail: said on the field, focused, and gone once the password is typed again', async () => {
    fakeApi({ 'PUT /api/me/email': wrong, 'GET /api/me/passkeys': { body: { passkeys: [] } } });
    const { user } = renderPage(<ProfileTab profile={profileFixture()} />, { path: '/settings' });
    const field = screen.getByLabelText(/^Current password/);
    await fill(user, field, 'Wrong-Pass-1');
    await user.click(screen.getByRole('button', { name: 'Update email' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Your current password is incorrect.'));
    expect(document.activeElement).toBe(field);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(field, 'x');
    await waitFor(() => expect(screen.queryByText('Your current password is incorrect.')).toBeNull());
  });

  it('changing the password: the same, and a later mismatch is not joined by the stale refusal', async () => {
    fakeApi({ 'PUT /api/me/password': wrong });
    const { user } = renderPage(<SecurityTab />, { path: '/settings' });
    const current = screen.getByLabelText(/^Current password/);
    await fill(user, current, 'Wrong-Pass-1');
    await fill(user, screen.getByLabelText(/^New password/), 'Newer-Pass-2027');
    await fill(user, screen.getByLabelText(/^Confirm new password/), 'Newer-Pass-2027');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(current).toHaveAccessibleDescription(expect.stringContaining('Your current password is incorrect.'));

    await user.clear(current);
    await fill(user, current, 'Sturdy-Pass-2026');
    await user.type(screen.getByLabelText(/^Confirm new password/), '8');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(screen.getByLabelText(/^Confirm new password/)).toHaveAccessibleDescription(expect.stringContaining('New passwords do not match')));
    expect(screen.queryByText('Your current password is incorrect.')).toBeNull();
  });
});
