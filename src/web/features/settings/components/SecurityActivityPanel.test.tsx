import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { SecurityEvent } from '../../../../contracts/security-activity';
import { fakeApi, renderPage } from '../../../test/render';
import { SecurityActivityPanel } from './SecurityActivityPanel';

const events: SecurityEvent[] = [
  { kind: 'sign_in', at: '2026-11-27T09:30:00.000Z', ipAddress: '2001:db8:85a3:x:x:x:x:x' },
  { kind: 'sign_in_failed', at: '2026-11-27T09:29:00.000Z', ipAddress: '198.51.100.x' },
  { kind: 'account_created', at: '2026-11-02T10:00:00.000Z', ipAddress: null },
];

describe('Settings → Security → Recent security activity (decision 166)', () => {
  it('words each event, newest first, with when and the masked address', async () => {
    fakeApi({ 'GET /api/me/security-activity': { body: { events } } });
    renderPage(<SecurityActivityPanel />);
    const list = await screen.findByRole('list', { name: 'Your recent security activity' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.security-item-name')?.textContent)).toEqual([
      'Signed in',
      'Failed sign-in: wrong password or passkey',
      'Account created',
    ]);
    expect(items[1]!.textContent).toContain('198.51.100.x');
    expect(items[1]!.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-27T09:29:00.000Z');
    expect(items[2]!.textContent).toContain('Address unknown');
  });

  it('a failed load says so and tries again on request', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/me/security-activity': () =>
        ++calls === 1 ? { status: 503, body: { error: { code: 'service_unavailable', message: 'The service is busy. Please try again in a moment.' } } } : { body: { events } },
    });
    const { user } = renderPage(<SecurityActivityPanel />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The service is busy.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Your recent security activity' })).toBeVisible();
  });
});
