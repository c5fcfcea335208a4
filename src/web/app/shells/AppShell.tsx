// The signed-in area lives in its own chunk: the session check (RequireAuth) and the frame with the
// side menu and the account box (AppShellFrame.tsx). The router loads it as the layout route of
// the signed-in pages, alongside the page's own chunk, so the landing page's first load (budget
// 120 KB gzip, docs/decisions/009) carries none of it.
export const loadAppShell = () => import('./AppShellFrame');

/** Starts downloading the signed-in shell early, e.g. once a session is known to exist. */
export function preloadAppShell(): void {
  void loadAppShell();
}
