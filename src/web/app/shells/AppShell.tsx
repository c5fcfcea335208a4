import { lazy, Suspense } from 'react';
import { Spinner } from '../../ui/Spinner';

// The signed-in shell lives in its own chunk: the landing page's first load (budget 120 KB gzip)
// should not carry the side menu of pages a visitor cannot open yet.
const loadFrame = () => import('./AppShellFrame');
const AppShellFrame = lazy(loadFrame);

/** Starts downloading the signed-in shell early, e.g. once a session is known to exist. */
export function preloadAppShell(): void {
  void loadFrame();
}

export function AppShell() {
  return (
    <Suspense
      fallback={
        <div className="page-center">
          <Spinner label="Loading your account" />
        </div>
      }
    >
      <AppShellFrame />
    </Suspense>
  );
}
