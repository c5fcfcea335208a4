// The create-card wizard's browser state as a pure reducer: the step, the amount inputs
// and whether they were calculated, the review choices, the Create attempt and its result. No
// React and no I/O, so every branch is testable on its own (wizard-flow.test.ts); the hook in
// src/web/features/wizard/use-wizard.ts pairs it with the server's draft and the API calls.
//
// Where Continue and Back lead is decided by the step machine (./wizard.ts), never here; the BNPL
// flags it reads come from the server's combine, which is the one place they are kept. The draft,
// quote and result are described by the few fields read here, so the core needs no API types.

import { computeCombineTotal, RECOMMENDED_TAX_BUFFER_PERCENT } from './amount';
import type { BufferMode } from './amount';
import { CREATION_FEE_CENTS } from './fees';
import { fundingCheck } from './quote';
import type { WizardState, WizardStep } from './wizard';

export type AmountInputs = { baseInput: string; bufferInput: string; bufferMode: BufferMode };
export type AmountTotals = { baseCents: number; taxBufferCents: number; totalCents: number };
export type CardTypeChoice = 'general' | 'single-use';

/** What the review sends with the quote and the create call. */
export type ReviewChoices = { useBoost: boolean; creationFeeSourceIdx: number; cardType: CardTypeChoice };

/** A PayWeave card to preselect as a source ('Use as Source' on My Cards). */
export type SourcePrefill = { sourceCardId: string; amountCents: number | null };

/** The figures of a quote that identify a Create request. */
export type QuoteFigures = { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };

/** What the wizard reads of the server's draft combine. */
export interface DraftFacts {
  id: string;
  baseInput: string;
  bufferInput: string;
  bufferMode: BufferMode;
  currentStep: number;
  bnplStepCompleted: boolean;
  bnplCheckoutCompleted: boolean;
  useBoost: boolean;
  creationFeeSourceIdx: number;
  cardType: CardTypeChoice;
  totalAmountCents: number;
  sources: ReadonlyArray<{ id: string; type: string; chargeCents: number; netCents: number; bnplCardLast4: string | null }>;
  funding: { canContinue: boolean; netTotalCents: number };
}

export interface WizardUiState<TResult = unknown, TQuote extends QuoteFigures = QuoteFigures> {
  step: WizardStep;
  /** The server draft; null until step 1's Continue created it. */
  combineId: string | null;
  amount: AmountInputs;
  /** Set by Calculate; any edit of the inputs clears it, which disables Continue (docs/rules.md#funding). */
  totals: AmountTotals | null;
  amountError: string | null;
  choices: ReviewChoices;
  /**
   * The Idempotency-Key of the current Create attempt and what it asked for: retrying the same
   * request (after a network failure) reuses the key, so the server cannot charge twice;
   * anything else about the request changing starts a new attempt with a new key.
   */
  attempt: { key: string; fingerprint: string } | null;
  result: TResult | null;
  /** The new figures after a 409 quote_changed: nothing was charged, the user reviews again. */
  changedQuote: TQuote | null;
  prefill: SourcePrefill | null;
}

export const INITIAL_CHOICES: ReviewChoices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' };

/**
 * The creation-fee choice after the source at `removedIndex` is removed: the sources after it move
 * up one place, so the choice follows its source; if its source is the one removed, the new card
 * pays (-1). The server renumbers the stored choice and the wizard its own by this one rule.
 */
export function creationFeeIndexAfterRemoval(creationFeeSourceIdx: number, removedIndex: number): number {
  if (creationFeeSourceIdx === removedIndex) return -1;
  return creationFeeSourceIdx > removedIndex ? creationFeeSourceIdx - 1 : creationFeeSourceIdx;
}

export function initialWizardState<TResult = unknown, TQuote extends QuoteFigures = QuoteFigures>(
  prefill: SourcePrefill | null = null,
): WizardUiState<TResult, TQuote> {
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

export type WizardAction<TResult = unknown, TQuote extends QuoteFigures = QuoteFigures> =
  | { type: 'amount_edited'; field: 'baseInput' | 'bufferInput'; value: string }
  | { type: 'buffer_mode_changed'; mode: BufferMode }
  | { type: 'calculated' }
  | { type: 'draft_started'; combineId: string }
  | { type: 'draft_restored'; combine: DraftFacts }
  | { type: 'step_changed'; step: WizardStep }
  | { type: 'choices_changed'; choices: Partial<ReviewChoices> }
  | { type: 'attempt_started'; key: string; fingerprint: string }
  | { type: 'create_succeeded'; result: TResult }
  | { type: 'create_failed' }
  | { type: 'quote_changed'; quote: TQuote }
  | { type: 'prefill_used' }
  | { type: 'reset' };

export function wizardReducer<TResult, TQuote extends QuoteFigures>(
  state: WizardUiState<TResult, TQuote>,
  action: WizardAction<TResult, TQuote>,
): WizardUiState<TResult, TQuote> {
  switch (action.type) {
    case 'amount_edited':
      // docs/rules.md#funding: editing any input resets the calculation, so Continue waits for Calculate again.
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
export function restoreFromCombine<TResult, TQuote extends QuoteFigures>(state: WizardUiState<TResult, TQuote>, combine: DraftFacts): WizardUiState<TResult, TQuote> {
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

export function resumableStep(combine: DraftFacts, amountValid: boolean): WizardStep {
  const saved = Number.isInteger(combine.currentStep) ? combine.currentStep : 1;
  let step = Math.min(Math.max(saved, 1), 5) as WizardStep;
  if (!amountValid) return 1;
  const hasBnpl = combine.sources.some((s) => s.type === 'bnpl');
  if (step >= 3 && !combine.funding.canContinue) step = 2;
  if (step === 3 && !hasBnpl) step = 2;
  // Step 4 is only the BNPL checkout; a draft saved there with nothing left to check out goes to
  // the one review (docs/decisions/052).
  if (step === 4 && !(hasBnpl && !combine.bnplCheckoutCompleted)) step = 5;
  return step;
}

/** The step machine's input: the browser's step and the server's BNPL flags. */
export function machineState(step: WizardStep, combine: DraftFacts | null): WizardState {
  return {
    step,
    hasBnpl: combine?.sources.some((s) => s.type === 'bnpl') ?? false,
    bnplStepCompleted: combine?.bnplStepCompleted ?? false,
    bnplCheckoutCompleted: combine?.bnplCheckoutCompleted ?? false,
  };
}

/** Step 2's Continue gate on the server's figures (core fundingCheck). */
export function sourcesFunding(combine: DraftFacts, creationFeeSourceIdx: number) {
  // fundingCheck only reads each source's net.
  return fundingCheck({
    sources: combine.sources.map((s) => ({ netCents: s.netCents })) as Parameters<typeof fundingCheck>[0]['sources'],
    netTotalCents: combine.funding.netTotalCents,
    totalCents: combine.totalAmountCents,
    cardAmountCents: combine.funding.netTotalCents - (creationFeeSourceIdx === -1 ? CREATION_FEE_CENTS : 0),
  });
}

/** What the quote depends on besides the choices: a new total or source list asks again. */
export function quoteFingerprint(combine: DraftFacts): string {
  return [combine.totalAmountCents, ...combine.sources.map((s) => `${s.id}:${s.chargeCents}:${s.bnplCardLast4 ?? ''}`)].join('|');
}

/** The identity of one Create request: same combine, choices and expected figures = a retry. */
export function attemptFingerprint(combineId: string, choices: ReviewChoices, quote: QuoteFigures): string {
  return JSON.stringify([combineId, choices.useBoost, choices.creationFeeSourceIdx, choices.cardType, quote.cardAmountCents, quote.totalChargedCents, quote.productFeeCents]);
}

/** The key for a Create: the current attempt's when this is a retry of it, else a fresh one. */
export function keyForAttempt(attempt: { key: string; fingerprint: string } | null, fingerprint: string, fresh: () => string): string {
  return attempt && attempt.fingerprint === fingerprint ? attempt.key : fresh();
}
