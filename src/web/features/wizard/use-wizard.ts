// The create-card wizard's state: one reducer for what only the browser knows (the step, the
// amount inputs and whether they were calculated, the review choices, the create attempt) and
// one hook that pairs it with the server's draft (held in the query cache by ./api.ts).
//
// Where Continue and Back lead is decided by the step machine in src/core/wizard.ts, never here;
// the BNPL flags it reads come from the server's combine, which is the one place they are kept.
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { computeCombineTotal, RECOMMENDED_TAX_BUFFER_PERCENT } from '../../../core/amount';
import type { BufferMode } from '../../../core/amount';
import { fundingCheck } from '../../../core/quote';
import { CREATION_FEE_CENTS } from '../../../core/fees';
import { nextStep, previousStep, stepView } from '../../../core/wizard';
import type { StepView, WizardState, WizardStep } from '../../../core/wizard';
import type { AddSourceRequest, Combine, CompleteCombineResponse, Quote } from '../../../contracts/combines';
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
import type { QuoteChoices } from './api';

// ---------- Messages (spec §8 and §2) ----------

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

// ---------- State ----------

export type AmountInputs = { baseInput: string; bufferInput: string; bufferMode: BufferMode };
export type AmountTotals = { baseCents: number; taxBufferCents: number; totalCents: number };

/** What the review sends with the quote and the create call. */
export type ReviewChoices = QuoteChoices;

/** A PayWeave card to preselect as a source ('Use as Source' on My Cards). */
export type SourcePrefill = { sourceCardId: string; amountCents: number | null };

export interface WizardUiState {
  step: WizardStep;
  /** The server draft; null until step 1's Continue created it. */
  combineId: string | null;
  amount: AmountInputs;
  /** Set by Calculate; any edit of the inputs clears it, which disables Continue (spec §4). */
  totals: AmountTotals | null;
  amountError: string | null;
  choices: ReviewChoices;
  /**
   * The Idempotency-Key of the current Create attempt and what it asked for: retrying the same
   * request (after a network failure) reuses the key, so the server cannot charge twice;
   * anything else about the request changing starts a new attempt with a new key.
   */
  attempt: { key: string; fingerprint: string } | null;
  result: CompleteCombineResponse | null;
  /** The new figures after a 409 quote_changed: nothing was charged, the user reviews again. */
  changedQuote: Quote | null;
  prefill: SourcePrefill | null;
}

export const INITIAL_CHOICES: ReviewChoices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' };

export function initialWizardState(prefill: SourcePrefill | null = null): WizardUiState {
  return {
    step: 1,
    combineId: null,
    amount: { baseInput: '', bufferInput: String(RECOMMENDED_TAX_BUFFER_PERCENT), bufferMode: 'percent' },
    totals: null,
    amountError: null,
    choices: INITIAL_CHOICES,
    attempt: null,
    result: null,
    changedQuote: null,
    prefill,
  };
}

export type WizardAction =
  | { type: 'amount_edited'; field: 'baseInput' | 'bufferInput'; value: string }
  | { type: 'buffer_mode_changed'; mode: BufferMode }
  | { type: 'calculated' }
  | { type: 'draft_started'; combineId: string }
  | { type: 'draft_restored'; combine: Combine }
  | { type: 'step_changed'; step: WizardStep }
  | { type: 'choices_changed'; choices: Partial<ReviewChoices> }
  | { type: 'attempt_started'; key: string; fingerprint: string }
  | { type: 'create_succeeded'; result: CompleteCombineResponse }
  | { type: 'create_failed' }
  | { type: 'quote_changed'; quote: Quote }
  | { type: 'prefill_used' }
  | { type: 'reset' };

export function wizardReducer(state: WizardUiState, action: WizardAction): WizardUiState {
  switch (action.type) {
    case 'amount_edited':
      // Spec §4: editing any input resets the calculation, so Continue waits for Calculate again.
      return { ...state, amount: { ...state.amount, [action.field]: action.value }, totals: null, amountError: null };
    case 'buffer_mode_changed':
      if (action.mode === state.amount.bufferMode) return state;
      return { ...state, amount: { ...state.amount, bufferMode: action.mode }, totals: null, amountError: null };
    case 'calculated': {
      const result = computeCombineTotal(state.amount);
      return result.ok
        ? { ...state, totals: { baseCents: result.baseCents, taxBufferCents: result.taxBufferCents, totalCents: result.totalCents }, amountError: null }
        : { ...state, totals: null, amountError: result.message };
    }
    case 'draft_started':
      return { ...state, combineId: action.combineId };
    case 'draft_restored':
      return restoreFromCombine(state, action.combine);
    case 'step_changed':
      // Leaving the review drops a 409's figures: coming back fetches a fresh quote.
      return { ...state, step: action.step, changedQuote: action.step < 4 ? null : state.changedQuote };
    case 'choices_changed':
      return { ...state, choices: { ...state.choices, ...action.choices }, changedQuote: null };
    case 'attempt_started':
      return { ...state, attempt: { key: action.key, fingerprint: action.fingerprint }, changedQuote: null, step: 6 };
    case 'create_succeeded':
      return { ...state, result: action.result, attempt: null, step: 7 };
    case 'create_failed':
      // The attempt (and its key) is kept: Create again with the same figures is a retry.
      return { ...state, step: 5 };
    case 'quote_changed':
      // The server refused and charged nothing; the next Create is a new attempt.
      return { ...state, changedQuote: action.quote, attempt: null, step: 5 };
    case 'prefill_used':
      return { ...state, prefill: null };
    case 'reset':
      return initialWizardState();
  }
}

/**
 * A saved or in-progress draft back in the wizard: its amount inputs (recalculated, so Continue
 * works), its review choices, and its saved step (spec: default 1). A step the draft cannot be
 * on any more is brought back to the nearest one it can: Processing and Success are never
 * resumed, the BNPL setup needs a BNPL source, and nothing after Sources without full funding.
 */
export function restoreFromCombine(state: WizardUiState, combine: Combine): WizardUiState {
  const amount: AmountInputs = { baseInput: combine.baseInput, bufferInput: combine.bufferInput, bufferMode: combine.bufferMode };
  const computed = computeCombineTotal(amount);
  const totals = computed.ok ? { baseCents: computed.baseCents, taxBufferCents: computed.taxBufferCents, totalCents: computed.totalCents } : null;
  const choices: ReviewChoices = {
    useBoost: combine.useBoost,
    creationFeeSourceIdx: combine.creationFeeSourceIdx < combine.sources.length ? combine.creationFeeSourceIdx : -1,
    cardType: combine.cardType,
  };
  return {
    ...state,
    combineId: combine.id,
    amount,
    totals,
    amountError: null,
    choices,
    attempt: null,
    result: null,
    changedQuote: null,
    step: resumableStep(combine, totals !== null),
  };
}

export function resumableStep(combine: Combine, amountValid: boolean): WizardStep {
  const saved = Number.isInteger(combine.currentStep) ? combine.currentStep : 1;
  let step = Math.min(Math.max(saved, 1), 5) as WizardStep;
  if (!amountValid) return 1;
  const hasBnpl = combine.sources.some((s) => s.type === 'bnpl');
  if (step >= 3 && !combine.funding.canContinue) step = 2;
  if (step === 3 && !hasBnpl) step = 2;
  return step;
}

/** The step machine's input: the browser's step and the server's BNPL flags. */
export function machineState(step: WizardStep, combine: Combine | null): WizardState {
  return {
    step,
    hasBnpl: combine?.sources.some((s) => s.type === 'bnpl') ?? false,
    bnplStepCompleted: combine?.bnplStepCompleted ?? false,
    bnplCheckoutCompleted: combine?.bnplCheckoutCompleted ?? false,
  };
}

/** Step 2's Continue gate on the server's figures (core fundingCheck). */
export function sourcesFunding(combine: Combine, creationFeeSourceIdx: number) {
  // fundingCheck only reads each source's net.
  return fundingCheck({
    sources: combine.sources.map((s) => ({ netCents: s.netCents })) as Parameters<typeof fundingCheck>[0]['sources'],
    netTotalCents: combine.funding.netTotalCents,
    totalCents: combine.totalAmountCents,
    cardAmountCents: combine.funding.netTotalCents - (creationFeeSourceIdx === -1 ? CREATION_FEE_CENTS : 0),
  });
}

/** What the quote depends on besides the choices: a new total or source list asks again. */
export function quoteFingerprint(combine: Combine): string {
  return [
    combine.totalAmountCents,
    ...combine.sources.map((s) => `${s.id}:${s.chargeCents}:${s.bnplCardLast4 ?? ''}`),
  ].join('|');
}

/** The identity of one Create request: same combine, choices and expected figures = a retry. */
export function attemptFingerprint(combineId: string, choices: ReviewChoices, quote: Quote): string {
  return JSON.stringify([combineId, choices.useBoost, choices.creationFeeSourceIdx, choices.cardType, quote.cardAmountCents, quote.totalChargedCents, quote.productFeeCents]);
}

/** The key for a Create: the current attempt's when this is a retry of it, else a fresh one. */
export function keyForAttempt(attempt: WizardUiState['attempt'], fingerprint: string, fresh: () => string): string {
  return attempt && attempt.fingerprint === fingerprint ? attempt.key : fresh();
}

// ---------- The hook ----------

export type ResumeProblem = { message: string } | null;

/** What adding a source came to; a decline keeps the form as typed so Try again resends it. */
export type AddSourceOutcome = { ok: true } | { ok: false; declined: boolean; message: string };

export function useWizard(options: { resumeId: string | null; prefill: SourcePrefill | null }) {
  const [state, dispatch] = useReducer(wizardReducer, options.prefill, initialWizardState);
  const toast = useToast();
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

  // ----- Resume (?resume=<id>) -----
  const resumeData = resumeQuery.data;
  const resumable = resumeData !== undefined && (resumeData.status === 'incomplete' || resumeData.status === 'in_progress');
  useEffect(() => {
    if (resumeData && resumable && state.combineId !== resumeData.id) dispatch({ type: 'draft_restored', combine: resumeData });
    // Only a newly loaded draft restores; later edits of the same draft must not be overwritten.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resumeData?.id, resumable]);

  let resumeProblem: ResumeProblem = null;
  if (options.resumeId !== null) {
    if (resumeQuery.error) {
      const notFound = resumeQuery.error instanceof ApiError && (resumeQuery.error.status === 404 || resumeQuery.error.status === 400);
      resumeProblem = { message: notFound ? WIZARD_MESSAGES.resumeNotFound : WIZARD_MESSAGES.resumeFailed };
    } else if (resumeData && !resumable && state.combineId !== resumeData.id) {
      // A combine that was completed meanwhile (e.g. in another tab) is no longer a saved one.
      resumeProblem = { message: WIZARD_MESSAGES.resumeNotFound };
    }
  }
  const resuming = options.resumeId !== null && resumeProblem === null && state.combineId !== options.resumeId;

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
  const continueFromAmount = useCallback(async () => {
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
  }, [state.totals, state.combineId, state.amount, updateDraft, createDraft, goTo, toast]);

  // ----- Step 2 -----
  const addSource = useCallback(
    async (source: AddSourceRequest): Promise<AddSourceOutcome> => {
      if (!state.combineId) return { ok: false, declined: false, message: WIZARD_MESSAGES.addSourceFailed };
      try {
        await addSourceMutation.mutateAsync({ id: state.combineId, source });
        return { ok: true };
      } catch (error) {
        // A decline (402) is said beside the form, with what the user typed kept for Try again.
        if (error instanceof ApiError && error.status === 402) return { ok: false, declined: true, message: error.message };
        const message = refusalMessage(error, WIZARD_MESSAGES.addSourceFailed);
        toast.error(message);
        return { ok: false, declined: false, message };
      }
    },
    [state.combineId, addSourceMutation, toast],
  );

  const removeSource = useCallback(
    async (sourceId: string): Promise<boolean> => {
      if (!state.combineId) return false;
      try {
        await removeSourceMutation.mutateAsync({ id: state.combineId, sourceId });
        return true;
      } catch (error) {
        toast.error(refusalMessage(error, WIZARD_MESSAGES.removeFailed));
        return false;
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
  const continueFromBnplSetup = useCallback(async () => {
    if (!state.combineId || !combine) return;
    const next = nextStep(machineState(3, combine));
    try {
      await updateDraft.mutateAsync({ id: state.combineId, patch: { bnplStepCompleted: next.bnplStepCompleted, currentStep: next.step } });
      goTo(next.step);
    } catch (error) {
      toast.error(refusalMessage(error, WIZARD_MESSAGES.saveFailed));
    }
  }, [state.combineId, combine, updateDraft, goTo, toast]);

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
  const saveForLater = useCallback(async () => {
    if (!state.combineId) return;
    try {
      await saveMutation.mutateAsync({
        id: state.combineId,
        currentStep: state.step,
        // No card data here: sources are tokens on the server (DECISIONS §4).
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
  }, [state.combineId, state.step, state.amount, state.choices, machine, saveMutation, toast, navigate]);

  // ----- Step 5: Create Virtual Card -----
  const create = useCallback(
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
        toast.error(refusalMessage(error, WIZARD_MESSAGES.createFailed));
      }
    },
    [state.combineId, state.choices, state.attempt, combine, completeMutation, queryClient, toast],
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
