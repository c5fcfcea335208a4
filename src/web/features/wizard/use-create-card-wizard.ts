import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useWizard } from './use-wizard';
import type { SourcePrefill } from './use-wizard';

/** `?step=<n>` as the step to reopen a draft on; the draft itself decides whether it still can. */
function stepFrom(params: URLSearchParams): number | null {
  const step = Number(params.get('step'));
  return Number.isInteger(step) && step >= 1 ? step : null;
}

/**
 * The wizard on /create-card with the address kept in step with it (the draft's id and step), focus
 * on each new step's heading, and 'start over'.
 */
export function useCreateCardWizard({ resumeId, prefill }: { resumeId: string | null; prefill: SourcePrefill | null }) {
  const [params, setParams] = useSearchParams();
  // The draft and step the address named when this wizard opened; later changes are its own writes.
  const [opened, setOpened] = useState(() => ({ draftId: resumeId ?? params.get('combine'), step: stepFrom(params) }));
  const wizard = useWizard({ resumeId: opened.draftId, resumeStep: opened.step, prefill });
  const navigate = useNavigate();
  const location = useLocation();
  const { state, resuming, resumeProblem, completedCombine } = wizard;

  // Keep the draft's id and step in the address, replacing the entry (no history per step). While
  // the card is being created it stays, so a reload then finds out what became of it (decision
  // 178); once the card is made the draft is spent, and a reload starts a new card.
  useEffect(() => {
    if (resuming || resumeProblem || completedCombine) return;
    const next = new URLSearchParams(params);
    if (state.combineId !== null && state.step <= 6) {
      next.set('combine', state.combineId);
      next.set('step', String(state.step));
    } else {
      next.delete('combine');
      next.delete('step');
    }
    if (next.toString() !== params.toString()) setParams(next, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the wizard's own changes write the address
  }, [state.combineId, state.step, resuming, resumeProblem, completedCombine]);

  // Spec: focus moves to the new step's heading, so keyboard and screen-reader users start there.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      // A fresh wizard opened from 'Create another card' is a step change for the user too.
      if (!(location.state as { focusWizard?: boolean } | null)?.focusWizard) return;
    }
    if (resuming) return;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a step change moves focus
  }, [state.step, resuming]);

  const startOver = () => {
    wizard.actions.reset();
    // The draft this wizard reopened is now a completed combine, no longer one to restore.
    setOpened({ draftId: null, step: null });
    navigate('/create-card', { replace: true, state: { focusWizard: true } });
  };

  return { wizard, headingRef, startOver };
}
