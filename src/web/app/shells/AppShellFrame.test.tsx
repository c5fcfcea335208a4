import { describe, expect, it } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createQueryClient } from '../providers';
import { sessionQueryKey } from '../../lib/session';
import { fakeApi } from '../../test/render';
import { profileFixture } from '../../test/fixtures';
import { setupUser } from '../../test/user';
import { ToastProvider } from '../../ui/toast';
import SignedInShell from './AppShellFrame';

function renderShell() {
  const api = fakeApi({
    'GET /api/config': { body: { demoMode: true, supportEmail: 'support@payweave.example', payAddress: 'pay.payweave.example' } },
    'POST /api/auth/logout': { status: 204 },
    'GET /api/session': { body: { signedIn: false, profile: null } },
  });
  const client = createQueryClient();
  client.setQueryData(sessionQueryKey, profileFixture());
  const router = createMemoryRouter(
    [
      {
        element: <SignedInShell />,
        children: [
          { path: '/dashboard', element: <h1>Dashboard</h1> },
          { path: '/history', element: <h1>Card History</h1> },
        ],
      },
      { path: '/login', element: <h1>Sign in</h1> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { user: setupUser(), router, api };
}

describe('the side menu on a phone (a disclosure)', () => {
  it('a followed link closes it and puts focus on the page, not on the document start', async () => {
    const { user, router } = renderShell();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('link', { name: 'Card History' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/history'));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('Escape closes it and returns focus to its button', async () => {
    const { user } = renderShell();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await user.click(toggle);
    screen.getByRole('link', { name: 'My Cards' }).focus();
    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('on a wide screen (menu never opened) a followed link keeps its focus', async () => {
    const { user, router } = renderShell();
    const link = await screen.findByRole('link', { name: 'Card History' });
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/history'));
    expect(document.activeElement).toBe(link);
  });
});

describe('Logout', () => {
  it('a fast double click logs out once, with one toast', async () => {
    const { api } = renderShell();
    const logout = await screen.findByRole('button', { name: 'Logout' });
    act(() => {
      logout.click();
      logout.click();
    });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(api.sent.filter((r) => r.path === '/api/auth/logout')).toHaveLength(1);
    expect(await screen.findAllByText('Successfully logged out')).toHaveLength(1);
  });
});
