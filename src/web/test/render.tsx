// Renders a page or component as the app does (query client, toasts, a router), against a fake
// API: each test lists the answers it expects, by method and path, and can read what was sent.
import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { ToastProvider } from '../ui/toast';
import { setupUser } from './user';

export type FakeAnswer = { status?: number; body?: unknown; headers?: Record<string, string> };
export type FakeHandler = (request: { body: unknown; url: URL; headers: Headers }) => FakeAnswer | Promise<FakeAnswer>;
export type FakeRoutes = Record<string, FakeHandler | FakeAnswer>;
export type SentRequest = { method: string; path: string; body: unknown; headers: Headers };

// A pattern such as "POST /api/combines/{star}/quote" with a star for one path segment matches any id there.
function matches(pattern: string, key: string): boolean {
  if (!pattern.includes('*')) return false;
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}$`).test(key);
}

/**
 * A fetch that answers from `routes` ("POST /api/combines": answer or handler; a "*" in the path
 * matches any one segment). Anything else answers 404, so a test notices a call it did not
 * plan for. Every request is kept in `sent`.
 */
export function fakeApi(routes: FakeRoutes) {
  const sent: SentRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = new Headers(init?.headers);
    sent.push({ method, path: url.pathname, body, headers });
    const key = `${method} ${url.pathname}`;
    const route = routes[key] ?? Object.entries(routes).find(([pattern]) => matches(pattern, key))?.[1];
    const answer: FakeAnswer = route === undefined ? { status: 404, body: { error: { code: 'not_found', message: `No fake for ${method} ${url.pathname}` } } } : typeof route === 'function' ? await route({ body, url, headers }) : route;
    const status = answer.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-test-0001', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, fetchMock, bodiesOf: (method: string, path: string) => sent.filter((r) => r.method === method && r.path === path).map((r) => r.body) };
}

/** Renders `element` at `path` inside the app's providers; other paths render their name. */
export function renderPage(element: ReactElement, options: { path?: string; route?: string } = {}) {
  const path = options.path ?? '/';
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: options.route ?? path.split('?')[0], element },
      { path: '*', element: <p data-testid="elsewhere">elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const user = setupUser();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...result, user, router, queryClient };
}
