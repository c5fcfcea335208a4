// The create-card wizard's hook: the pure reducer of src/core/wizard-flow.ts (what only the
// browser knows: the step, the amount inputs, the review choices, the create attempt) paired with
// the server's draft (held in the query cache by ./api.ts) and the calls that change it.
//
// Where Continue and Back lead is decided by the step machine in src/core/wizard.ts, never here;
// the BNPL flags it reads come from the server's combine, which is the one place they are kept.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useSingleFlight } from '../../lib/use-single-flight';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { BufferMode } from '../../../core/amount';
import { nextStep, previousStep, stepView } from '../../../core/wizard';
import type { StepView, WizardStep } from '../../../core/wizard';
import { attemptFingerprint, initialWizardState, keyForAttempt, machineState, quoteFingerprint, sourcesFunding, wizardReducer } from '../../../core/wizard-flow';
import type { ReviewChoices, SourcePrefill, WizardUiState as CoreWizardUiState } from '../../../core/wizard-flow';
import type { AddSourceRequest, CompleteCombineResponse, Quote } from '../../../contracts/combines';
import { ApiError, newIdempotencyKey } from '../../lib/api';
import { useToast } from '../../ui/toast';
import {
  quoteChangedDetails,
  combineQueryKey,
  quoteQueryKey,
  refusalMessage,
  useAddBnplCard,
  useAddSource,
  useCombine,
  useCompleteCombine,
  useCreateCombine,
  useRemoveSource,
  useSaveCombine,
  useUpdateCombine,
} from './api';

// ---------- Messages (docs/rules.md#messages, docs/rules.md#screens) ----------

export const WIZARD_MESSAGES = {
  addSourceFailed: 'Failed to add payment source',
  saved: 'Progress saved! You can resume later from your dashboard.',
  saveFailed: 'Failed to save progress. Try again.',
  createFailed: 'Failed to create virtual card',
  resumeNotFound: 'Could not find the saved combine.',
  resumeFailed: 'Failed to resume combine.',
  startFailed: 'Could not start your combine. Try again.',
  removeFailed: 'Failed to remove payment source',
  bnplCardFailed: 'Failed to save the BNPL card. Try again.',
} as const;

// ---------- State (the pure reducer lives in src/core/wizard-flow.ts) ----------

export type { AmountInputs, AmountTotals, ReviewChoices, SourcePrefill } from '../../../core/wizard-flow';
export type WizardUiState = CoreWizardUiState<CompleteCombineResponse, Quote>;
export { INITIAL_CHOICES, initialWizardState, wizardReducer } from '../../../core/wizard-flow';

// ---------- The hook ----------

export type ResumeProblem = { message: string } | null;

/** A field the API named in a refusal's `details`: its JSON pointer into the request (`/cardNumber`) and what is wrong with it. */
export type ApiFieldError = { path: string; message: string };
/**
 * What adding a source came to; a decline keeps the form as typed so Try again resends it.
 * `fieldErrors` is what the API's `details` named, empty when the refusal belongs to no field.
 */
export type AddSourceOutcome = { ok: true } | { ok: false; declined: true; message: string } | { ok: false; declined: false; message: string; fieldErrors: ApiFieldError[] };

/** The `[{ path, message }]` of a validation refusal's `details`; anything else names no field. */
function apiFieldErrors(error: unknown): ApiFieldError[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return [];
  return error.details.filter(
    (detail): detail is ApiFieldError => typeof detail === 'object' && detail !== null && typeof (detail as ApiFieldError).path === 'string' && typeof (detail as ApiFieldError).message === 'string',
  );
}

export function useWizard(options: { resumeId: string | null; resumeStep?: number | null; prefill: SourcePrefill | null }) {
  const [state, dispatch] = useReducer(wizardReducer<CompleteCombineResponse, Quote>, options.prefill, (prefill) => initialWizardState<CompleteCombineResponse, Quote>(prefill));
  const toast = useToast();
  // Create answered that the combine is already completed (another tab or window made the card):
  // the review says so and offers the way on instead of a Create that can only fail again.
  const [completedElsewhereId, setCompletedElsewhereId] = useState<string | null>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // The resumed draft is loaded by id; afterwards the cache entry of state.combineId is the draft.
  const resumeQuery = useCombine(options.resumeId);
  const combineQuery = useCombine(state.combineId);
  const combine = state.combineId !== null ? (combineQuery.data ?? null) : null;

  const createDraft = useCreateCombine();
  const updateDraft = useUpdateCombine();
  const addSourceMutation = useAddSource();
  const removeSourceMutation = useRemoveSource();
  const bnplCardMutation = useAddBnplCard();
  const saveMutation = useSaveCombine();
  const completeMutation = useCompleteCombine();

  // ----- Resume (?resume=<id>, or ?combine=<id>&step=<n> after a reload) -----
  const resumeData = resumeQuery.data;
  const resumable = resumeData !== undefined && (resumeData.status === 'incomplete' || resumeData.status === 'in_progress');
  useEffect(() => {
    if (resumeData && resumable && state.combineId !== resumeData.id) {
      // The address's step is fresher than the saved one (only some steps write it to the server);
      // the restore still brings it back to a step the draft can be on.
      const currentStep = options.resumeStep ?? resumeData.currentStep;
      dispatch({ type: 'draft_restored', combine: { ...resumeData, currentStep } });
    }
    // Only a newly loaded draft restores; later edits of the same draft must not be overwritten.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resumeData?.id, resumable]);

  // A combine that has made its card since it was opened (the page was reloaded while the card
  // was being created, or another tab created it): nothing is left to resume, and the wizard says
  // what became of it rather than that it cannot be found (decision 178).
  const completedCombine = options.resumeId !== null && resumeData?.status === 'completed' && state.combineId !== resumeData.id ? resumeData : null;

  let resumeProblem: ResumeProblem = null;
  if (options.resumeId !== null) {
    if (resumeQuery.error) {
      const notFound = resumeQuery.error instanceof ApiError && (resumeQuery.error.status === 404 || resumeQuery.error.status === 400);
      resumeProblem = { message: notFound ? WIZARD_MESSAGES.resumeNotFound : WIZARD_MESSAGES.resumeFailed };
    } else if (resumeData && !resumable && !completedCombine && state.combineId !== resumeData.id) {
      // A combine that failed or is no longer a draft is not a saved one.
      resumeProblem = { message: WIZARD_MESSAGES.resumeNotFound };
    }
  }
  const resuming = options.resumeId !== null && resumeProblem === null && completedCombine === null && state.combineId !== options.resumeId;

  useEffect(() => {
    if (resumeProblem) toast.error(resumeProblem.message);
    // Announce once per failure, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resumeProblem?.message]);

  // ----- Derived -----
  const machine = machineState(state.step, combine);
  const view: StepView = stepView(machine);
  const funding = combine ? sourcesFunding(combine, state.choices.creationFeeSourceIdx) : null;
  const goTo = useCallback((step: WizardStep) => dispatch({ type: 'step_changed', step }), []);

  // A removed source can leave the creation-fee choice pointing past the end of the list.
  const sourceCount = combine?.sources.length ?? 0;
  useEffect(() => {
    if (state.choices.creationFeeSourceIdx >= sourceCount && state.choices.creationFeeSourceIdx !== -1) {
      dispatch({ type: 'choices_changed', choices: { creationFeeSourceIdx: -1 } });
    }
  }, [sourceCount, state.choices.creationFeeSourceIdx]);

  // ----- Step 1 -----
  // One at a time: a fast double click would start two drafts, one of them left behind.
  const continueFromAmount = useSingleFlight(async () => {
    if (!state.totals) return;
    try {
      const draft = state.combineId
        ? await updateDraft.mutateAsync({ id: state.combineId, patch: { ...state.amount, currentStep: 2 } })
        : await createDraft.mutateAsync(state.amount);
      if (!state.combineId) dispatch({ type: 'draft_started', combineId: draft.id });
      goTo(nextStep(machineState(1, draft)).step);
    } catch (error) {
      toast.error(refusalMessage(error, WIZARD_MESSAGES.startFailed));
    }
  });

  // ----- Step 2 -----
  const addSource = useCallback(
    async (source: AddSourceRequest): Promise<AddSourceOutcome> => {
      if (!state.combineId) return { ok: false, declined: false, message: WIZARD_MESSAGES.addSourceFailed, fieldErrors: [] };
      try {
        await addSourceMutation.mutateAsync({ id: state.combineId, source });
        return { ok: true };
      } catch (error) {
        // A decline (402) is said beside the form, with what the user typed kept for Try again.
        if (error instanceof ApiError && error.status === 402) return { ok: false, declined: true, message: error.message };
        const message = refusalMessage(error, WIZARD_MESSAGES.addSourceFailed);
        toast.error(message);
        return { ok: false, declined: false, message, fieldErrors: apiFieldErrors(error) };
      }
    },
    [state.combineId, addSourceMutation, toast],
  );

  // Each source is removed once: a fast double click on its Remove sent a second DELETE, whose 404
  // toasted 'Payment source not found.' for a removal that had worked. Other sources stay removable.
  const removing = useRef(new Set<string>());
  const removeSource = useCallback(
    async (sourceId: string): Promise<boolean> => {
      if (!state.combineId || removing.current.has(sourceId)) return false;
      removing.current.add(sourceId);
      try {
        const updated = await removeSourceMutation.mutateAsync({ id: state.combineId, sourceId });
        // The sources after the removed one move up, and the server moved the fee choice with its
        // source (creationFeeIndexAfterRemoval). Its answer is taken rather than worked out here:
        // two removals in quick succession would each work from a list already out of date.
        dispatch({ type: 'choices_changed', choices: { creationFeeSourceIdx: updated.creationFeeSourceIdx } });
        return true;
      } catch (error) {
        toast.error(refusalMessage(error, WIZARD_MESSAGES.removeFailed));
        return false;
      } finally {
        removing.current.delete(sourceId);
      }
    },
    [state.combineId, removeSourceMutation, toast],
  );

  const continueFromSources = useCallback(() => {
    if (!combine || !funding) return;
    if (!funding.ok) {
      toast.error(funding.message);
      return;
    }
    if (funding.showOverfundInfo && funding.overfundInfo) toast.info(funding.overfundInfo);
    goTo(nextStep(machineState(2, combine)).step);
  }, [combine, funding, goTo, toast]);

  // ----- Step 3 -----
  const continueFromBnplSetup = useSingleFlight(async () => {
    if (!state.combineId || !combine) return;
    const next = nextStep(machineState(3, combine));
    try {
      await updateDraft.mutateAsync({ id: state.combineId, patch: { bnplStepCompleted: next.bnplStepCompleted, currentStep: next.step } });
      goTo(next.step);
    } catch (error) {
      toast.error(refusalMessage(error, WIZARD_MESSAGES.saveFailed));
    }
  });

  // ----- Step 4 (BNPL checkout) -----
  const submitBnplCard = useCallback(
    async (sourceId: string, card: { cardNumber: string; expiry: string; cvv: string }): Promise<boolean> => {
      if (!state.combineId || !combine) return false;
      const before = machineState(4, combine);
      try {
        const updated = await bnplCardMutation.mutateAsync({ id: state.combineId, sourceId, card });
        // Every BNPL source needs its own one-time card; the checkout is done once all have one.
        if (updated.bnplCheckoutCompleted) goTo(nextStep(before).step);
        return true;
      } catch (error) {
        toast.error(refusalMessage(error, WIZARD_MESSAGES.bnplCardFailed));
        return false;
      }
    },
    [state.combineId, combine, bnplCardMutation, goTo, toast],
  );

  // ----- Step 4 (review) -----
  const continueFromReview = useCallback(() => {
    goTo(nextStep(machine).step);
  }, [machine, goTo]);

  // ----- Back -----
  const back = useCallback(() => {
    goTo(previousStep(machine).step);
  }, [machine, goTo]);

  // After a 409 whose new figures no longer cover the card (the promo spot went to someone else),
  // the only way on is more funding: straight back to Sources, with the server's fresh totals.
  const backToSources = useCallback(() => {
    if (state.combineId) void queryClient.invalidateQueries({ queryKey: combineQueryKey(state.combineId) });
    goTo(2);
  }, [state.combineId, queryClient, goTo]);

  // ----- Save for Later (BNPL steps) -----
  // One save at a time: a double click would save twice and show the toast twice.
  const saveForLater = useSingleFlight(async () => {
    if (!state.combineId) return;
    try {
      await saveMutation.mutateAsync({
        id: state.combineId,
        currentStep: state.step,
        // No card data here: sources are tokens on the server (docs/rules.md#cards).
        formData: {
          ...state.amount,
          ...state.choices,
          bnplStepCompleted: machine.bnplStepCompleted,
          bnplCheckoutCompleted: machine.bnplCheckoutCompleted,
        },
      });
      toast.success(WIZARD_MESSAGES.saved);
      navigate('/dashboard');
    } catch {
      toast.error(WIZARD_MESSAGES.saveFailed);
    }
  });

  // ----- Step 5: Create Virtual Card -----
  // One at a time: a second click before the busy re-render sent a second create with a new key,
  // whose 'already completed' answer replaced the first one's card with 'Your card already exists'.
  const create = useSingleFlight(
    async (quote: Quote) => {
      if (!state.combineId) return;
      const fingerprint = attemptFingerprint(state.combineId, state.choices, quote);
      const key = keyForAttempt(state.attempt, fingerprint, newIdempotencyKey);
      dispatch({ type: 'attempt_started', key, fingerprint });
      try {
        const result = await completeMutation.mutateAsync({
          id: state.combineId,
          idempotencyKey: key,
          body: {
            ...state.choices,
            expected: {
              cardAmountCents: quote.cardAmountCents,
              totalChargedCents: quote.totalChargedCents,
              productFeeCents: quote.productFeeCents,
            },
          },
        });
        dispatch({ type: 'create_succeeded', result });
        if (result.boostEarned) toast.success(result.boostMessage ?? 'You earned a Boost!');
      } catch (error) {
        const changed = quoteChangedDetails(error);
        if (changed) {
          // The new figures replace the cached quote too, so nothing can send the old ones again.
          if (combine) queryClient.setQueryData(quoteQueryKey(state.combineId, state.choices, quoteFingerprint(combine)), changed);
          dispatch({ type: 'quote_changed', quote: changed });
          return;
        }
        dispatch({ type: 'create_failed' });
        if (error instanceof ApiError && error.status === 409 && error.code === 'already_completed') {
          setCompletedElsewhereId(state.combineId);
          return;
        }
        toast.error(refusalMessage(error, WIZARD_MESSAGES.createFailed));
      }
    },
  );

  const actions = useMemo(
    () => ({
      editAmount: (field: 'baseInput' | 'bufferInput', value: string) => dispatch({ type: 'amount_edited', field, value }),
      setBufferMode: (mode: BufferMode) => dispatch({ type: 'buffer_mode_changed', mode }),
      calculate: () => dispatch({ type: 'calculated' }),
      setChoices: (choices: Partial<ReviewChoices>) => dispatch({ type: 'choices_changed', choices }),
      usePrefill: () => dispatch({ type: 'prefill_used' }),
      reset: () => dispatch({ type: 'reset' }),
    }),
    [],
  );

  return {
    state,
    combine,
    machine,
    view,
    funding,
    resuming,
    resumeProblem,
    completedCombine,
    completedElsewhere: completedElsewhereId !== null && completedElsewhereId === state.combineId,
    actions: {
      ...actions,
      continueFromAmount,
      addSource,
      removeSource,
      continueFromSources,
      continueFromBnplSetup,
      submitBnplCard,
      continueFromReview,
      back,
      backToSources,
      saveForLater,
      create,
    },
    pending: {
      amount: createDraft.isPending || updateDraft.isPending,
      addSource: addSourceMutation.isPending,
      removeSourceId: removeSourceMutation.isPending ? (removeSourceMutation.variables?.sourceId ?? null) : null,
      bnplSetup: updateDraft.isPending,
      bnplCard: bnplCardMutation.isPending,
      save: saveMutation.isPending,
      create: completeMutation.isPending,
    },
  };
}

export type Wizard = ReturnType<typeof useWizard>;
