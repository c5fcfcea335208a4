import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { ErrorState } from '../../../ui/ErrorState';
import { Modal } from '../../../ui/Modal';
import { Spinner } from '../../../ui/Spinner';
import { useCombine } from '../api/history';
import { HISTORY_MESSAGES } from '../history-format';
import { CombineDetails } from './CombineDetails';

export function CombineDetailsModal({ combineId, onClose }: { combineId: string | null; onClose: () => void }) {
  const combine = useCombine(combineId);
  return (
    <Modal open={combineId !== null} onOpenChange={(open) => (open ? undefined : onClose())} title="Combine details" size="lg">
      {combineId === null ? null : combine.isPending ? (
        <Spinner label="Loading combine" showLabel />
      ) : combine.isError ? (
        <ErrorState
          compact
          headingLevel={3}
          title={HISTORY_MESSAGES.detailFailed}
          message={errorMessage(combine.error, 'Please try again.')}
          onRetry={() => void combine.refetch()}
          retrying={combine.isFetching}
        />
      ) : (
        <>
          <CombineDetails combine={combine.data} />
          <p className="text-small">
            <Link to={`/history/${combineId}`}>Open as a page</Link>
          </p>
        </>
      )}
    </Modal>
  );
}
