import { useId } from 'react';
import { Icon } from '../../ui/Icon';
import type { FaqCategory } from './faq-types';

type FaqFiltersProps = {
  categories: readonly FaqCategory[];
  query: string;
  categoryId: string | null;
  onSearch: (query: string) => void;
  onChooseCategory: (categoryId: string | null) => void;
};

/** The search box and the category chips ('All' and one per category). */
export function FaqFilters({ categories, query, categoryId, onSearch, onChooseCategory }: FaqFiltersProps) {
  const searchId = useId();
  return (
    <div className="faq-tools" role="search" aria-label="Search and filter questions">
      <div className="faq-search">
        <label htmlFor={searchId} className="faq-search-label">
          Search the FAQ
        </label>
        <div className="faq-search-box">
          <Icon name="search" className="faq-search-icon" />
          <input
            id={searchId}
            type="search"
            className="faq-search-input"
            placeholder="e.g. fees, limits, PayPal"
            value={query}
            onChange={(event) => onSearch(event.target.value)}
            autoComplete="off"
          />
        </div>
      </div>
      <div className="faq-chips" role="group" aria-label="Filter by category">
        <button type="button" className="chip" aria-pressed={categoryId === null} onClick={() => onChooseCategory(null)}>
          All
        </button>
        {categories.map((category) => (
          <button
            key={category.id}
            type="button"
            className="chip"
            aria-pressed={categoryId === category.id}
            onClick={() => onChooseCategory(category.id)}
          >
            {category.title}
          </button>
        ))}
      </div>
    </div>
  );
}
