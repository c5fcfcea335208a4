import { DRAFT_LIFETIME_DAYS } from '../../../core/draft-lifetime';
import { formatUsd } from '../../../core/money';
import { errorMessage } from '../../lib/api';
import { ButtonLink } from '../../ui/Button';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { DraftItem } from './DraftItem';
import { DRAFT_MESSAGES, useResumeCombine } from './use-resume-combine';
import './drafts.css';

export { DRAFT_MESSAGES } from './use-resume-combine';
export { stepLabel } from './DraftItem';

/** /resume-combine: the user's saved combines, to continue or delete (docs/rules.md#save-for-later). */
export default function ResumeCombinePage() {
  const { drafts, deletion, pendingDelete, setPendingDelete, headingRef, continueDraft, confirmDelete } = useResumeCombine();

  return (
    <section className="page drafts-page">
      <PageHeader
        title="Resume Combine"
        description={`Combines you saved for later, or left unfinished for an hour. Each is kept ${DRAFT_LIFETIME_DAYS} days from its start, then deleted and any holds on your cards released.`}
        actions={
          <ButtonLink to="/create-card" variant="secondary">
            <Icon name="card" size={18} />
            New card
          </ButtonLink>
        }
      />
      <h2 ref={headingRef} tabIndex={-1} className="visually-hidden">
        Saved combines
      </h2>
      {drafts.isPending ? (
        <div className="page-center">
          <Spinner label="Loading saved combines" showLabel />
        </div>
      ) : drafts.isError ? (
        <ErrorState
          title={DRAFT_MESSAGES.loadFailed}
          message={errorMessage(drafts.error, 'Please try again.')}
          onRetry={() => void drafts.refetch()}
          retrying={drafts.isFetching}
        />
      ) : drafts.data.length === 0 ? (
        <EmptyState
          icon="inbox"
          title="No saved combines"
          actions={
            <ButtonLink to="/create-card">
              <Icon name="card" size={18} />
              Create a Card
            </ButtonLink>
          }
        >
          When you choose Save for Later in the card wizard, or leave a card unfinished, the combine waits here until you come back.
        </EmptyState>
      ) : (
        <ul className="draft-list">
          {drafts.data.map((draft) => (
            <DraftItem key={draft.id} draft={draft} onDelete={() => setPendingDelete(draft)} onContinue={() => continueDraft(draft)} />
          ))}
        </ul>
      )}
      <ConfirmModal
        open={pendingDelete !== null}
        onOpenChange={(open) => {
          if (!open) setPendingDelete(null);
        }}
        title="Delete this saved combine?"
        onConfirm={() => void confirmDelete()}
        confirmLabel="Delete"
        tone="danger"
        busy={deletion.isPending}
      >
        {pendingDelete
          ? `The ${formatUsd(pendingDelete.totalAmountCents)} combine and its ${pendingDelete.sourceCount === 1 ? 'source' : 'sources'} will be removed, and any holds on your cards released. This cannot be undone.`
          : null}
      </ConfirmModal>
    </section>
  );
}
