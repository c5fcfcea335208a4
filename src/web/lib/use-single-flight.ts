import { useRef } from 'react';

/**
 * `action`, run one call at a time: a call while one is still running does nothing. A fast double
 * click lands before a busy state re-renders the button as disabled, so the guard is a ref, which
 * changes at once. Used where a second run would repeat an effect (a pre-authorisation, a saved
 * payout method, a saved draft).
 */
export function useSingleFlight<A extends unknown[]>(action: (...args: A) => Promise<unknown>): (...args: A) => Promise<void> {
  const running = useRef(false);
  return async (...args: A) => {
    if (running.current) return;
    running.current = true;
    try {
      await action(...args);
    } finally {
      running.current = false;
    }
  };
}
