// The cash-out form's schema and where the API's field errors land. The rule is the core's
// (validateCashout, docs/rules.md#cashout-checks): the form previews with it, the server decides.
import { z } from 'zod';
import type { Card } from '../../../contracts/cards';
import { cashoutAmountProblem, cashoutCardProblem, cashoutMethodProblem, validateCashout } from '../../../core/cashout';
import type { PayoutMethod, PlanId } from '../../../core/plans';

export type CashoutFormValues = { cardId: string; amount: string; payoutMethod: string };
export type CashoutFormField = keyof CashoutFormValues;
/** What a valid form gives: the card, the amount in cents and the method. */
export type CashoutChoice = { cardId: string; amountCents: number; payoutMethod: PayoutMethod };

/**
 * The whole form is checked at once with the real values. When it fails, each input also says what
 * is wrong with it on its own (the core's own check of that input), so a touched field shows its
 * message while an untouched one is still empty; the amount is checked only against a card with a balance.
 */
export function cashoutFormSchema(plan: PlanId, cards: readonly Card[]) {
  return z
    .object({ cardId: z.string(), amount: z.string(), payoutMethod: z.string() })
    .transform((values, ctx): CashoutChoice => {
      const remainingCents = cards.find((card) => card.id === values.cardId)?.remainingAmountCents ?? null;
      const check = validateCashout({ plan, remainingCents, method: values.payoutMethod || null, amountInput: values.amount });
      if (check.ok) return { cardId: values.cardId, amountCents: check.amountCents, payoutMethod: check.method };
      const problems: Array<[CashoutFormField, string | null]> = [
        ['cardId', cashoutCardProblem(remainingCents)],
        ['payoutMethod', cashoutMethodProblem(plan, values.payoutMethod || null)],
        ['amount', remainingCents !== null && remainingCents > 0 ? cashoutAmountProblem(values.amount, remainingCents) : null],
      ];
      for (const [field, message] of problems) if (message !== null) ctx.addIssue({ code: 'custom', path: [field], message });
      return z.NEVER;
    });
}

/** The request's fields (contracts/cashouts.ts) as the API names them in an error's `details`, and the form field each is entered in. */
const FIELD_OF_API_PATH: Readonly<Record<string, CashoutFormField>> = {
  '/cardId': 'cardId',
  '/amountCents': 'amount',
  '/payoutMethod': 'payoutMethod',
};

/**
 * The field errors of an API error's `details` (`[{path, message}]`, src/server/plugins/errors.ts),
 * each on the field its path names; the first message per field. Details without a known path
 * give none: the refusal is then the form's, not a field's.
 */
export function apiFieldErrors(details: unknown): Array<{ field: CashoutFormField; message: string }> {
  if (!Array.isArray(details)) return [];
  const found = new Map<CashoutFormField, string>();
  for (const detail of details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { path, message } = detail as { path?: unknown; message?: unknown };
    const field = typeof path === 'string' && Object.hasOwn(FIELD_OF_API_PATH, path) ? FIELD_OF_API_PATH[path] : undefined;
    if (field && typeof message === 'string' && message && !found.has(field)) found.set(field, message);
  }
  return [...found].map(([field, message]) => ({ field, message }));
}
