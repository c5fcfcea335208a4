// docs/rules.md#outside-effects: no outside call inside a database transaction. Every test app's card processor,
// payouts and mail delivery are wrapped so that a call made while a transaction is open (in the
// calling code's async scope, whichever transaction it is) throws at once and is kept, so the test
// fails even when the throw is swallowed (a background drain logs it); createTestApp's close()
// reports it.
import type { Adapters } from '../../src/server/adapters';
import { insideTransaction } from '../../src/server/db/transaction-scope';

export type AdapterGuard = { violations: string[] };

function guarded<T extends object>(name: string, target: T, guard: AdapterGuard, only?: ReadonlyArray<keyof T>): T {
  const wrapped: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  for (const [key, value] of Object.entries(target)) {
    if (typeof value !== 'function' || (only && !only.includes(key as keyof T))) continue;
    wrapped[key] = (...args: unknown[]) => {
      if (insideTransaction()) {
        const violation = `${name}.${key} was called inside a database transaction (docs/rules.md#outside-effects)`;
        guard.violations.push(violation);
        return Promise.reject(new Error(violation));
      }
      return (value as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
  return wrapped as T;
}

/** Wraps the app's outside-world adapters in place (before the app serves anything). */
export function guardAdapters(adapters: Adapters): AdapterGuard {
  const guard: AdapterGuard = { violations: [] };
  // Every call of the card processor: preauthorize and issueCard (before the transaction), capture
  // and release (the drain), setCardState (the card-state reconciler, decision 170).
  adapters.cardProcessor = guarded('cardProcessor', adapters.cardProcessor, guard);
  // Every call of the payout provider: registerDestination (decision 168: before the transaction
  // that saves the method) as well as send (after the commit, from the drain).
  adapters.payouts = guarded('payouts', adapters.payouts, guard);
  // The mailer's enqueue writes an outbox row in the caller's transaction, by design; its flush
  // talks to the mail server and so must not run inside one.
  adapters.mailer = guarded('mailer', adapters.mailer, guard, ['flush']);
  return guard;
}
