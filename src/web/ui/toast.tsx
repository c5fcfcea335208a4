import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';

// The one toast system of the app (docs/rules.md#screens: bottom-right, hidden after 5 s, four types).
// The provider only keeps the queue; the Radix-based viewport that renders it is a separate
// chunk loaded when the first toast is raised, which keeps Radix out of the landing page's
// first-load budget. Pages use `useToast()` and never touch Radix directly.

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface ToastItem {
  id: number;
  type: ToastType;
  message: string;
}

export interface ToastApi {
  success(message: string): void;
  error(message: string): void;
  warning(message: string): void;
  info(message: string): void;
}

export const TOAST_DURATION_MS = 5000;
/** Older toasts are dropped beyond this many, so a burst of errors cannot cover the page. */
const MAX_VISIBLE_TOASTS = 4;

const ToastViewport = lazy(() => import('./ToastViewport'));
const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const [viewportWanted, setViewportWanted] = useState(false);
  const nextId = useRef(1);

  const show = useCallback((type: ToastType, message: string) => {
    const id = nextId.current++;
    setViewportWanted(true);
    setToasts((list) => [...list, { id, type, message }].slice(-MAX_VISIBLE_TOASTS));
  }, []);

  const remove = useCallback((id: number) => {
    setToasts((list) => list.filter((toast) => toast.id !== id));
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      success: (message) => show('success', message),
      error: (message) => show('error', message),
      warning: (message) => show('warning', message),
      info: (message) => show('info', message),
    }),
    [show],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      {viewportWanted && (
        <Suspense fallback={null}>
          <ToastViewport toasts={toasts} durationMs={TOAST_DURATION_MS} onRemove={remove} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() must be used inside <ToastProvider>');
  return api;
}
