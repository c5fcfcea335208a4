import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSingleFlight } from '../../lib/use-single-flight';
import type { CombineSummary } from '../../../contracts/combines';
import { useToast } from '../../ui/toast';
import { useDeleteDraft, useDrafts } from './api/drafts';

export const DRAFT_MESSAGES = {
  loadFailed: 'Failed to load saved combines',
  deleted: 'Combine deleted successfully',
  deleteFailed: 'Failed to delete combine',
  redirecting: 'Redirecting to continue your combine...',
} as const;

/** The saved combines, continuing one, and deleting one after confirming. */
export function useResumeCombine() {
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

  return { drafts, deletion, pendingDelete, setPendingDelete, headingRef, continueDraft, confirmDelete };
}
