import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';

type FaqNoResultsProps = {
  query: string;
  onClear: () => void;
};

/** What shows when the search and filter leave nothing: clear them, or ask support below. */
export function FaqNoResults({ query, onClear }: FaqNoResultsProps) {
  return (
    <EmptyState
      icon="search"
      title="No results found"
      actions={
        <>
          <Button variant="secondary" onClick={onClear}>
            Clear search
          </Button>
          <a className="btn btn-ghost" href="#contact">
            Ask support
          </a>
        </>
      }
    >
      <p>
        Nothing matches “{query.trim() || 'your filter'}”. Try a different word, pick another category, or ask us
        directly.
      </p>
    </EmptyState>
  );
}
