import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Card } from '../../../contracts/cards';
import { errorMessage } from '../../lib/api';
import { Button, ButtonLink } from '../../ui/Button';
import { ChoiceChips } from '../../ui/ChoiceChips';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { useCards } from './api/cards';
import { CARD_FILTERS, CARD_PAGE_MESSAGES } from './card-format';
import { CardDetailsModal } from './components/CardDetailsModal';
import { CashoutModal } from '../cashout';
import { CardTable } from './components/CardTable';
import { CardTile } from './components/CardTile';
import './cards.css';

type View = 'grid' | 'list';
const VIEWS: ReadonlyArray<{ value: View; label: string }> = [
  { value: 'grid', label: 'Grid' },
  { value: 'list', label: 'List' },
];

type PageFilter = (typeof CARD_FILTERS)[number]['value'];
const isFilter = (value: string | null): value is PageFilter => CARD_FILTERS.some((f) => f.value === value);

/** /my-cards (docs/rules.md#screens): the user's cards, newest first, filtered, as a grid of flip cards or a list. */
export default function MyCardsPage() {
  const [params, setParams] = useSearchParams();
  const filterParam = params.get('filter');
  const filter = isFilter(filterParam) ? filterParam : 'all';
  const view: View = params.get('view') === 'list' ? 'list' : 'grid';
  const cards = useCards(filter);
  const [selected, setSelected] = useState<Card | null>(null);
  const [cashoutCardId, setCashoutCardId] = useState<string | null>(null);
  // One modal at a time: the details modal closes before the cash-out modal opens.
  const openCashout = (card: Card) => {
    setSelected(null);
    setCashoutCardId(card.id);
  };

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  const filterLabel = CARD_FILTERS.find((f) => f.value === filter)?.label ?? 'All';

  return (
    <section className="page cards-page">
      <PageHeader title="My Cards" description="Your virtual cards, newest first. Flip a card to see what is left on it." />

      <div className="cards-toolbar">
        <ChoiceChips label="Filter cards" options={CARD_FILTERS} value={filter} onChange={(value) => update({ filter: value === 'all' ? null : value })} />
        <ChoiceChips label="View" options={VIEWS} value={view} onChange={(value) => update({ view: value === 'grid' ? null : value })} />
      </div>

      <h2 className="visually-hidden">{filter === 'all' ? 'All cards' : `${filterLabel} cards`}</h2>
      {cards.isPending ? (
        <div className="page-center">
          <Spinner label="Loading cards" showLabel />
        </div>
      ) : cards.isError ? (
        <ErrorState
          title={CARD_PAGE_MESSAGES.loadFailed}
          message={errorMessage(cards.error, 'Please try again.')}
          onRetry={() => void cards.refetch()}
          retrying={cards.isFetching}
        />
      ) : cards.data.length === 0 ? (
        filter === 'all' ? (
          <EmptyState
            icon="card"
            title="No cards yet"
            actions={
              <ButtonLink to="/create-card">
                <Icon name="card" size={18} />
                Create a Card
              </ButtonLink>
            }
          >
            Combine your payment sources into one virtual card: it will appear here.
          </EmptyState>
        ) : (
          <EmptyState
            icon="search"
            title={`No ${filterLabel.toLowerCase()} cards`}
            actions={
              <Button variant="secondary" onClick={() => update({ filter: null })}>
                Show All Cards
              </Button>
            }
          >
            None of your cards match this filter.
          </EmptyState>
        )
      ) : view === 'grid' ? (
        <ul className="card-grid" aria-label="Cards">
          {cards.data.map((card) => (
            <CardTile key={card.id} card={card} onViewDetails={() => setSelected(card)} onCashOut={openCashout} />
          ))}
        </ul>
      ) : (
        <CardTable cards={cards.data} onViewDetails={setSelected} />
      )}

      <CardDetailsModal card={selected} onClose={() => setSelected(null)} onCashOut={openCashout} />
      {/* docs/rules.md#wizard-steps: Cash Out on this page is a modal, the same form, rules and steps as /cashout. */}
      <CashoutModal open={cashoutCardId !== null} onOpenChange={(open) => (open ? undefined : setCashoutCardId(null))} cardId={cashoutCardId} />

      <ButtonLink to="/create-card" className="fab" aria-label="Create a new card">
        <Icon d="M12 5v14M5 12h14" size={24} />
        <span className="fab-label">New card</span>
      </ButtonLink>
    </section>
  );
}
