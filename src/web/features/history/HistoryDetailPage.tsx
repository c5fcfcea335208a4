import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../lib/api';
import { ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { useCombine } from './api/history';
import { CombineDetails } from './components/CombineDetails';
import { HISTORY_MESSAGES } from './history-format';
import './history.css';

/** /history/:id: the dashboard's 'View Details' target, the same details as the history modal. */
export default function HistoryDetailPage() {
  const { id = '' } = useParams();
  const combine = useCombine(id);
  const back = (
    <ButtonLink to="/history" variant="secondary">
      <Icon d="M19 12H5M12 19l-7-7 7-7" size={18} />
      Card History
    </ButtonLink>
  );
  return (
    <section className="page history-page">
      <PageHeader title="Combine details" actions={back} />
      {combine.isPending ? (
        <div className="page-center">
          <Spinner label="Loading combine" showLabel />
        </div>
      ) : combine.isError ? (
        combine.error instanceof ApiError && (combine.error.status === 404 || combine.error.status === 400) ? (
          <EmptyState icon="search" title="Combine not found" actions={back}>
            There is no combine with this link in your history.
          </EmptyState>
        ) : (
          <ErrorState
            title={HISTORY_MESSAGES.loadFailed}
            message={errorMessage(combine.error, 'Please try again.')}
            onRetry={() => void combine.refetch()}
            retrying={combine.isFetching}
          />
        )
      ) : combine.data.status !== 'completed' ? (
        <EmptyState icon="search" title="Combine not found" actions={back}>
          Only completed combines are part of your history.
        </EmptyState>
      ) : (
        <div className="card">
          <CombineDetails combine={combine.data} headingLevel={2} />
        </div>
      )}
    </section>
  );
}
