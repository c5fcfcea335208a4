import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { Button, ButtonLink, buttonClassName } from '../../ui/Button';
import { ChoiceChips } from '../../ui/ChoiceChips';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { Money } from '../../ui/Money';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { historyCsvUrl, useHistory, type HistoryRange } from './api/history';
import { CombineDetailsModal } from './components/CombineDetailsModal';
import { HISTORY_MESSAGES, HISTORY_RANGES, cardStatusLabel, formatDate } from './history-format';
import './history.css';

const isRange = (value: string | null): value is HistoryRange => HISTORY_RANGES.some((r) => r.value === value);

/** /history (docs/rules.md#screens): completed combines, newest first, filtered by range, exportable as CSV. */
export default function HistoryPage() {
  const [params, setParams] = useSearchParams();
  const rangeParam = params.get('range');
  const range: HistoryRange = isRange(rangeParam) ? rangeParam : 'all';
  const history = useHistory(range);
  const [openId, setOpenId] = useState<string | null>(null);
  const rangeLabel = HISTORY_RANGES.find((r) => r.value === range)?.label ?? 'All';

  const setRange = (value: HistoryRange) => {
    const next = new URLSearchParams(params);
    if (value === 'all') next.delete('range');
    else next.set('range', value);
    setParams(next, { replace: true });
  };

  return (
    <section className="page history-page">
      <PageHeader
        title="Card History"
        description="Your completed combines and the cards they created."
        actions={
          <a href={historyCsvUrl(range)} download className={buttonClassName({ variant: 'secondary' })}>
            <Icon d="M12 3v12M7 10l5 5 5-5M5 21h14" size={18} />
            Export CSV
          </a>
        }
      />
      <div className="history-toolbar">
        <ChoiceChips label="Show combines from" options={HISTORY_RANGES} value={range} onChange={setRange} />
      </div>
      <h2 className="visually-hidden">{range === 'all' ? 'All combines' : `Combines of the ${rangeLabel.toLowerCase()}`}</h2>
      {history.isPending ? (
        <div className="page-center">
          <Spinner label="Loading history" showLabel />
        </div>
      ) : history.isError ? (
        <ErrorState
          title={HISTORY_MESSAGES.loadFailed}
          message={errorMessage(history.error, 'Please try again.')}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
        />
      ) : history.data.length === 0 ? (
        <EmptyState
          icon="inbox"
          title={range === 'all' ? 'No combines yet' : `No combines in the ${rangeLabel.toLowerCase()}`}
          actions={
            range === 'all' ? (
              <ButtonLink to="/create-card">
                <Icon name="card" size={18} />
                Create a Card
              </ButtonLink>
            ) : (
              <Button variant="secondary" onClick={() => setRange('all')}>
                Show all history
              </Button>
            )
          }
        >
          Completed combines appear here with the card each one created.
        </EmptyState>
      ) : (
        <ul className="history-list" aria-label="Completed combines">
          {history.data.map((entry) => {
            const amount = entry.card?.originalAmountCents ?? entry.totalAmountCents;
            return (
              <li key={entry.id} className="card history-item">
                <div className="history-item-main">
                  <p className="history-amount">
                    <Money cents={amount} />
                  </p>
                  <dl className="history-meta">
                    <div>
                      <dt>Created</dt>
                      <dd>{formatDate(entry.createdAt)}</dd>
                    </div>
                    <div>
                      <dt>Sources</dt>
                      <dd>
                        {entry.sourceCount} {entry.sourceCount === 1 ? 'source' : 'sources'}
                      </dd>
                    </div>
                    <div>
                      <dt>Card status</dt>
                      <dd>{entry.card ? cardStatusLabel(entry.card.status, entry.card.frozen) : '—'}</dd>
                    </div>
                    <div>
                      <dt>Balance</dt>
                      <dd>{entry.card ? <Money cents={entry.card.remainingAmountCents} /> : '—'}</dd>
                    </div>
                  </dl>
                </div>
                <Button variant="secondary" onClick={() => setOpenId(entry.id)} aria-label={`View Details of the combine of ${formatDate(entry.createdAt)}`}>
                  View Details
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <CombineDetailsModal combineId={openId} onClose={() => setOpenId(null)} />
    </section>
  );
}
