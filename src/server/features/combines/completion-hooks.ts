// Other features (payouts: paying pending BNPL rebates) hook into the completion transaction
// without this feature importing them.
import type { Tx } from '../../db/client';

export type CompletionContext = { userId: string; now: Date; preferredPayout: string | null };
/** Resolves to how many money effects it may have written (unclaimed: the completion then kicks the drain). */
type CompletionHook = (tx: Tx, context: CompletionContext) => Promise<number>;
/**
 * Whether the hook has nothing to do for this context, known without reading anything. A
 * completion in one statement (decision 151) runs no hook, so it is only taken when every hook
 * is idle; otherwise the locked transaction runs them.
 */
type IdleWhen = (context: CompletionContext) => boolean;

const hooks: Array<{ run: CompletionHook; idleWhen: IdleWhen }> = [];
export const afterCompletionHooks = {
  add(run: CompletionHook, idleWhen: IdleWhen = () => false) {
    if (!hooks.some((hook) => hook.run === run)) hooks.push({ run, idleWhen });
  },
  async run(tx: Tx, context: CompletionContext): Promise<number> {
    let effects = 0;
    for (const hook of hooks) effects += await hook.run(tx, context);
    return effects;
  },
  allIdle(context: CompletionContext): boolean {
    return hooks.every((hook) => hook.idleWhen(context));
  },
};
