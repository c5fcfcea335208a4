import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { Spinner } from '../ui/Spinner';
import { leavingDestination } from '../lib/leave-signed-out';

// docs/rules.md#screens: a protected page shows a spinner while the session loads, then the page or /login.
// The page asked for travels along so sign-in can come back to it.
export function RequireAuth({ children }: { children: ReactNode }) {
  const { profile, isLoading } = useSession();
  const location = useLocation();
  if (isLoading) {
    // The whole page while the session loads: a main landmark and a heading, as every page has.
    return (
      <main className="page-center">
        <h1 className="visually-hidden">PayWeave</h1>
        <Spinner label="Loading your account" />
      </main>
    );
  }
  if (!profile) {
    // After a deliberate logout the user goes to plain /login (docs/rules.md#screens), not back to this page;
    // after closing the account, to the landing page.
    const leavingTo = leavingDestination();
    if (leavingTo) return <Navigate to={leavingTo} replace />;
    const next = location.pathname + location.search;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}
