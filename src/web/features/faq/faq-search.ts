// The FAQ's search: every word of the query must appear in a question or its answer.
import type { FaqCategory, FaqItem } from './faq-types';

/** Lower-cased words of a search query; an empty list matches everything. */
export function searchTerms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** An item matches when every term appears in its question or answer. */
export function itemMatches(item: FaqItem, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const text = `${item.question} ${item.answer.join(' ')}`.toLowerCase();
  return terms.every((term) => text.includes(term));
}

/** Categories narrowed to the chosen one and to the items matching the search; empty ones dropped. */
export function filterFaq(
  categories: readonly FaqCategory[],
  query: string,
  categoryId: string | null,
): FaqCategory[] {
  const terms = searchTerms(query);
  return categories
    .filter((category) => categoryId === null || category.id === categoryId)
    .map((category) => ({ ...category, items: category.items.filter((item) => itemMatches(item, terms)) }))
    .filter((category) => category.items.length > 0);
}
