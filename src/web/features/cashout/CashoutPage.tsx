import { useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { Card } from '../../ui/Card';
import { ErrorState } from '../../ui/ErrorState';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { LOAD_ELIGIBLE_FAILED, useCashoutCards } from './api/cashouts';
import { CashoutForm } from './CashoutForm';

/** /cashout (docs/rules.md#cashout-checks): pick a card, an amount and a payout method; /cashout?cardId= preselects a card. */
export default function CashoutPage() {
  const [params] = useSearchParams();
  const cards = useCashoutCards();
  return (
    <section className="page">
      <PageHeader title="Cash Out" description="Move money from a virtual card to your payout method." />
      <div className="cashout-layout">
        {cards.isPending ? (
          <div className="page-center">
            <Spinner label="Loading your cards" showLabel />
          </div>
        ) : cards.isError ? (
          <ErrorState title={LOAD_ELIGIBLE_FAILED} message={errorMessage(cards.error, 'Please try again.')} onRetry={() => void cards.refetch()} retrying={cards.isFetching} />
        ) : (
          <Card>
            <CashoutForm cards={cards.data} initialCardId={params.get('cardId')} onFinished={() => void cards.refetch()} />
          </Card>
        )}
      </div>
    </section>
  );
}
