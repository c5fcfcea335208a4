import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSingleFlight } from '../../lib/use-single-flight';
import { formatUsd } from '../../../core/money';
import { PROGRESS_STEP_COUNT, WIZARD_STEPS } from '../../../core/wizard';
import { DRAFT_LIFETIME_DAYS } from '../../../core/draft-lifetime';
import type { CombineSummary } from '../../../contracts/combines';
import { errorMessage } from '../../lib/api';
import { Button, ButtonLink } from '../../ui/Button';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/toast';
import { useDeleteDraft, useDrafts } from './api/drafts';
import './drafts.css';

export const DRAFT_MESSAGES = {
  loadFailed: 'Failed to load saved combines',
  deleted: 'Combine deleted successfully',
  deleteFailed: 'Failed to delete combine',
  redirecting: 'Redirecting to continue your combine...',
} as const;

const savedDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Step 3 of 6: BNPL Setup"; a draft without a saved step resumes at step 1 (docs/rules.md#bnpl-steps). */
export function stepLabel(step: number): string {
  const known = WIZARD_STEPS.find((s) => s.step === step) ?? { step: 1, title: 'Amount' };
  return `Step ${Math.min(known.step, PROGRESS_STEP_COUNT)} of ${PROGRESS_STEP_COUNT}: ${known.title}`;
}

/** /resume-combine: the user's saved combines, to continue or delete (docs/rules.md#save-for-later). */
export default function ResumeCombinePage() {
  const drafts = useDrafts();
  const deletion = useDeleteDraft();
  const toast = useToast();
  const navigate = useNavigate();
  const [pendingDelete, setPendingDelete] = useState<CombineSummary | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const continueDraft = (draft: CombineSummary) => {
    toast.info(DRAFT_MESSAGES.redirecting);
    navigate(`/create-card?resume=${encodeURIComponent(draft.id)}`);
  };

  // One delete at a time: a fast double click on Delete sent a second one, whose 404 toasted
  // 'Failed to delete combine' beside 'Combine deleted successfully'.
  const confirmDelete = useSingleFlight(async () => {
    if (!pendingDelete) return;
    try {
      await deletion.mutateAsync(pendingDelete.id);
      toast.success(DRAFT_MESSAGES.deleted);
      setPendingDelete(null);
      // The row (and the button that had focus) is gone: continue from the list's heading.
      headingRef.current?.focus();
    } catch {
      toast.error(DRAFT_MESSAGES.deleteFailed);
    }
  });

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
            <li key={draft.id} className="card draft-item">
              <div className="draft-main">
                <p className="draft-amount">{formatUsd(draft.totalAmountCents)}</p>
                <dl className="draft-meta">
                  <div>
                    <dt>Sources</dt>
                    <dd>
                      {draft.sourceCount} {draft.sourceCount === 1 ? 'source' : 'sources'}
                    </dd>
                  </div>
                  <div>
                    <dt>Saved</dt>
                    <dd>{savedDate.format(new Date(draft.savedAt ?? draft.createdAt))}</dd>
                  </div>
                  <div>
                    <dt>Progress</dt>
                    <dd>{stepLabel(draft.currentStep)}</dd>
                  </div>
                  {draft.keptUntil ? (
                    <div>
                      <dt>Kept until</dt>
                      <dd>{savedDate.format(new Date(draft.keptUntil))}</dd>
                    </div>
                  ) : null}
                </dl>
              </div>
              <div className="draft-actions">
                <Button
                  variant="ghost"
                  onClick={() => setPendingDelete(draft)}
                  aria-label={`Delete saved combine of ${formatUsd(draft.totalAmountCents)}`}
                >
                  Delete
                </Button>
                <Button onClick={() => continueDraft(draft)} aria-label={`Continue Combine of ${formatUsd(draft.totalAmountCents)}`}>
                  Continue Combine
                  <Icon name="arrowRight" size={18} />
                </Button>
              </div>
            </li>
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
