import { describe, expect, it } from 'vitest';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { render, screen } from '@testing-library/react';
import { api } from '../lib/api';
import { sessionQueryKey } from '../lib/session';
import { fakeApi } from '../test/render';
import { profileFixture } from '../test/fixtures';
import { ToastProvider } from '../ui/toast';
import { createQueryClient } from './providers';
import { RequireAuth } from './RequireAuth';

function CardsPage() {
  const cards = useQuery({ queryKey: ['cards'], queryFn: () => api('/api/cards'), retry: false });
  return <p>{cards.isError ? 'Could not load your cards' : 'Your cards'}</p>;
}

function LoginPage() {
  return <p>Sign in</p>;
}

describe('a session that ended elsewhere (decision 164)', () => {
  it('a request answered 401 reads the session again, and a signed-in page gives way to /login with the way back', async () => {
    const api = fakeApi({
      'GET /api/cards': { status: 401, body: { error: { code: 'unauthorized', message: 'Please sign in to continue.' } } },
      'GET /api/session': { body: { signedIn: false, profile: null } },
    });
    const client = createQueryClient();
    // Signed in when the page opened; the session was ended from another device since.
    client.setQueryData(sessionQueryKey, profileFixture());
    const router = createMemoryRouter(
      [
        { path: '/my-cards', element: <RequireAuth><CardsPage /></RequireAuth> },
        { path: '/login', element: <LoginPage /> },
      ],
      { initialEntries: ['/my-cards'] },
    );
    render(
      <QueryClientProvider client={client}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Sign in')).toBeVisible();
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?next=%2Fmy-cards');
    expect(api.sent.filter((request) => request.path === '/api/session')).toHaveLength(1);
  });

  it('another refusal (a wrong password is 401 too, with its own code) leaves the session alone', async () => {
    const api = fakeApi({
      'GET /api/cards': { status: 401, body: { error: { code: 'invalid_credentials', message: 'Invalid email or password.' } } },
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
    });
    const client = createQueryClient();
    client.setQueryData(sessionQueryKey, profileFixture());
    const router = createMemoryRouter([{ path: '/my-cards', element: <RequireAuth><CardsPage /></RequireAuth> }], { initialEntries: ['/my-cards'] });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Could not load your cards')).toBeVisible();
    expect(api.sent.filter((request) => request.path === '/api/session')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/my-cards');
  });
});
