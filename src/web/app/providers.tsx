import type { ReactNode } from 'react';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { sessionQueryKey } from '../lib/session';
import { ToastProvider } from '../ui/toast';

// A request answered 401 `unauthorized` means the session is gone: signed out elsewhere, ended from
// another device (decision 164), expired. Reading the session again lets RequireAuth send the
// user to /login (and back here after signing in) instead of leaving the page full of errors.
// When the session is in fact still there, the read changes nothing.
const isSessionGone = (error: unknown) => error instanceof ApiError && error.status === 401 && error.code === 'unauthorized';

export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    if (isSessionGone(error)) {
      void client.invalidateQueries({ queryKey: sessionQueryKey, exact: true });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      // Money screens must show what the server says now, but without hammering it on every focus.
      // A 401 is not retried: the session is gone, and the read above takes the user to sign in at once.
      queries: { staleTime: 10_000, retry: (failures, error) => failures < 1 && !isSessionGone(error), refetchOnWindowFocus: false },
    },
  });
  return client;
}

const queryClient = createQueryClient();

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
