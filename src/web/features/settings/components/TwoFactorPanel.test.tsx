import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { RECOVERY_CODE_COUNT } from '../../../../contracts/two-factor';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { TwoFactorPanel } from './TwoFactorPanel';

// Settings → Security → Two-factor authentication on its own (docs/decisions/014): the password
// asked again when the server wants it, a refused code said and the field emptied, the recovery
// codes shown once and confirmed, and turning it off with what the server needs.

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const setup = { secret: SECRET, otpauthUri: `otpauth://totp/PayWeave:ada%40example.com?secret=${SECRET}&issuer=PayWeave` };
const codes = Array.from({ length: RECOVERY_CODE_COUNT }, (_, i) => `abcd-ef${String(i).padStart(2, '0')}`);
const reauthRequired = { status: 403, body: { error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } } };

describe('TwoFactorPanel', () => {
  it('turning on: the password again when the server wants it, a wrong one said on its field, then the setup key', async () => {
    let setups = 0;
    let reauths = 0;
    const api = fakeApi({
      'POST /api/me/two-factor/setup': () => (++setups === 1 ? reauthRequired : { body: setup }),
      'POST /api/auth/reauthenticate': () =>
        ++reauths === 1 ? { status: 400, body: { error: { code: 'wrong_password', message: 'Your password is incorrect.' } } } : { status: 204 },
    });
    const { user } = renderPage(<TwoFactorPanel enabled={false} />, { path: '/settings' });
    await user.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));
    const heading = await screen.findByRole('heading', { name: 'Confirm your password' });
    await waitFor(() => expect(heading).toHaveFocus());
    const password = screen.getByLabelText(/^Password/);
    await fill(user, password, 'Wrong-Pass-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(expect.stringContaining('Your password is incorrect.')));
    expect(password).toHaveAttribute('aria-invalid', 'true');

    await user.clear(password);
    await fill(user, password, 'Sturdy-Pass-2026');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Add PayWeave to your authenticator app' })).toBeVisible();
    // The key in groups of four, as apps let you type it.
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/auth/reauthenticate')).toEqual([{ password: 'Wrong-Pass-1' }, { password: 'Sturdy-Pass-2026' }]);
  });

  it('a refused code is said and the field emptied; the right one shows the recovery codes, to be confirmed saved', async () => {
    let enables = 0;
    const api = fakeApi({
      'POST /api/me/two-factor/setup': { body: setup },
      'POST /api/me/two-factor/enable': () =>
        ++enables === 1 ? { status: 400, body: { error: { code: 'invalid_code', message: 'Invalid authentication code' } } } : { body: { recoveryCodes: codes } },
    });
    const { user } = renderPage(<TwoFactorPanel enabled={false} />, { path: '/settings' });
    await user.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));
    const code = await screen.findByLabelText(/^Authentication code/);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid authentication code');
    await waitFor(() => expect(code).toHaveValue(''));

    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(RECOVERY_CODE_COUNT);
    expect(within(list).getByText('abcd-ef00')).toBeVisible();
    expect(api.bodiesOf('POST', '/api/me/two-factor/enable')).toEqual([{ code: '000000' }, { code: '123456' }]);

    // Done needs the box ticked: the message is on the box.
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const saved = screen.getByRole('checkbox', { name: /I have saved these codes/ });
    await waitFor(() => expect(saved).toHaveAccessibleDescription(expect.stringContaining('Confirm that you have saved your recovery codes')));
    await user.click(saved);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toHaveFocus());
  });

  it('on: warns when few recovery codes are left, and turning it off sends the password and the code', async () => {
    const api = fakeApi({
      'GET /api/me/two-factor': { body: { enabled: true, recoveryCodesRemaining: 2 } },
      'POST /api/me/two-factor/disable': { status: 204 },
    });
    const { user } = renderPage(<TwoFactorPanel enabled />, { path: '/settings' });
    expect(await screen.findByText(`2 of ${RECOVERY_CODE_COUNT} recovery codes left.`)).toBeVisible();
    expect(screen.getByText(/You are running out of recovery codes/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor authentication' }));
    const form = await screen.findByRole('form', { name: 'Turn off two-factor authentication' });
    await fill(user, within(form).getByLabelText(/^Current password/), 'Sturdy-Pass-2026');
    await user.type(within(form).getByLabelText(/^Authentication code/), '123456');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(api.bodiesOf('POST', '/api/me/two-factor/disable')).toEqual([{ currentPassword: 'Sturdy-Pass-2026', code: '123456' }]));
    expect(await screen.findByText('Two-factor authentication is off')).toBeVisible();
  });
});
