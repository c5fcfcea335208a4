import { useQuote } from '../api';
import { quoteFingerprint } from '../../../../core/wizard-flow';
import type { Wizard } from '../use-wizard';

/**
 * The server's quote for the review. Each pick asks again, and the server's quote stores the
 * choices on the draft: a reload shows them as last picked (decision 160).
 */
export function useReviewQuote(wizard: Wizard) {
  const { combine, state } = wizard;
  const quoteQuery = useQuote(state.combineId, state.choices, combine ? quoteFingerprint(combine) : '', combine !== null);
  // After a 409 quote_changed the server's new figures are what the user must review.
  const quote = state.changedQuote ?? quoteQuery.data ?? null;
  const stale = state.changedQuote === null && quoteQuery.isPlaceholderData;
  return { quoteQuery, quote, stale };
}
