import { useMemo, useState } from 'react';
import { usePublicConfig } from '../../lib/public-config';
import { buildFaq } from './faq-content';
import { filterFaq } from './faq-search';

const DEFAULT_PAY_ADDRESS = 'pay.payweave.example';

/** The FAQ's categories, the search and category filter over them, and which categories are open. */
export function useFaqFilter() {
  const { config } = usePublicConfig();
  const categories = useMemo(() => buildFaq({ payAddress: config?.payAddress ?? DEFAULT_PAY_ADDRESS }), [config?.payAddress]);
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [openIds, setOpenIds] = useState<string[]>(() => [categories[0]?.id ?? '']);

  const visible = filterFaq(categories, query, categoryId);
  const questionCount = visible.reduce((sum, category) => sum + category.items.length, 0);

  // Searching or picking a category opens what it found, so the answers are in view.
  function search(nextQuery: string) {
    setQuery(nextQuery);
    if (nextQuery.trim()) setOpenIds(filterFaq(categories, nextQuery, categoryId).map((category) => category.id));
  }
  function chooseCategory(nextId: string | null) {
    setCategoryId(nextId);
    if (nextId) setOpenIds((ids) => (ids.includes(nextId) ? ids : [...ids, nextId]));
  }
  function clearFilters() {
    setQuery('');
    setCategoryId(null);
  }

  return { categories, query, categoryId, openIds, setOpenIds, visible, questionCount, search, chooseCategory, clearFilters };
}
