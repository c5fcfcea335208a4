import type { Card } from '../../../../contracts/cards';
import { errorMessage } from '../../../lib/api';
import { Badge } from '../../../ui/Badge';
import { ErrorState } from '../../../ui/ErrorState';
import { Money } from '../../../ui/Money';
import { Spinner } from '../../../ui/Spinner';
import { PAYOUT_METHOD_LABELS, isPayoutMethod } from '../../../../core/plans';
import { useCardTransactions } from '../api/cards';
import { TRANSACTION_LABELS, declineText, formatDateTime } from '../card-format';

/** The card's purchases, cash-outs, transfers and funding, newest first, each with its status. */
export function TransactionList({ card }: { card: Card }) {
  const transactions = useCardTransactions(card.id);
  if (transactions.isPending) return <Spinner label="Loading transactions" showLabel size="sm" />;
  if (transactions.isError) {
    return (
      <ErrorState
        compact
        headingLevel={4}
        title="Failed to load transactions"
        message={errorMessage(transactions.error, 'Please try again.')}
        onRetry={() => void transactions.refetch()}
        retrying={transactions.isFetching}
      />
    );
  }
  if (transactions.data.length === 0) return <p className="text-small text-muted">No transactions yet.</p>;
  return (
    <ul className="transaction-list" aria-label={`Transactions of card ending ${card.last4}`}>
      {transactions.data.map((t) => {
        // Money in is positive, money out negative; a declined purchase moved nothing.
        const incoming = t.type === 'funding' || t.type === 'transfer_in';
        const detail =
          t.merchant ?? (t.payoutMethod && isPayoutMethod(t.payoutMethod) ? `To ${PAYOUT_METHOD_LABELS[t.payoutMethod]}` : t.type === 'funding' ? 'From your combine' : '');
        return (
          <li key={t.id} className={`transaction transaction--${t.status}`}>
            <div className="transaction-main">
              <span className="transaction-type">{TRANSACTION_LABELS[t.type]}</span>
              {detail && <span className="transaction-detail">{detail}</span>}
              <span className="transaction-date">{formatDateTime(t.createdAt)}</span>
              {t.status === 'declined' && <span className="transaction-decline">{declineText(t)}</span>}
            </div>
            <div className="transaction-side">
              {t.status === 'declined' ? <s><Money cents={t.amountCents} /></s> : <Money cents={incoming ? t.amountCents : -t.amountCents} signed={incoming} />}
              <Badge tone={t.status === 'success' ? 'success' : t.status === 'declined' ? 'error' : 'warning'}>
                {t.status === 'success' ? 'Success' : t.status === 'declined' ? 'Declined' : 'Pending'}
              </Badge>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
