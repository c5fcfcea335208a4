import { describe, expect, it } from 'vitest';
import {
  creationFeeIndexAfterRemoval,
  attemptFingerprint,
  initialWizardState,
  keyForAttempt,
  machineState,
  restoreFromCombine,
  sourcesFunding,
  wizardReducer,
} from './wizard-flow';
import type { DraftFacts, QuoteFigures, WizardUiState } from './wizard-flow';

// The wizard's browser state, tested without React (the reducer moved here from the
// web hook). The draft fixtures carry only what the wizard reads of the server's combine.

type Source = DraftFacts['sources'][number] & { position: number; last4: string; brand: string; provider: string };

function source(overrides: Partial<Source> = {}): Source {
  return { id: 'src-1', position: 0, type: 'credit', provider: 'visa', chargeCents: 30_000, brand: 'visa', last4: '4242', bnplCardLast4: null, netCents: 28_800, ...overrides };
}

function combine(overrides: Partial<DraftFacts> = {}): DraftFacts {
  const sources = overrides.sources ?? [source()];
  const net = sources.reduce((sum, s) => sum + s.netCents, 0);
  const total = overrides.totalAmountCents ?? 55_000;
  return {
    id: 'combine-1',
    totalAmountCents: total,
    baseInput: '500',
    bufferInput: '10',
    bufferMode: 'percent',
    currentStep: 2,
    bnplStepCompleted: false,
    bnplCheckoutCompleted: false,
    useBoost: false,
    creationFeeSourceIdx: -1,
    cardType: 'general',
    sources,
    funding: { netTotalCents: net, canContinue: net >= total && sources.length > 0 },
    ...overrides,
  };
}

const FUNDED = [source(), source({ id: 'src-2', position: 1, last4: '4444', brand: 'mastercard', chargeCents: 27_295, netCents: 26_200 })];

describe('the amount step (docs/rules.md#funding: Continue only after Calculate; editing resets it)', () => {
  it('starts with the recommended 10% buffer and nothing calculated', () => {
    const state = initialWizardState();
    expect(state.amount).toEqual({ baseInput: '', bufferInput: '10', bufferMode: 'percent' });
    expect(state.totals).toBeNull();
  });

  it('Calculate gives $500 + 10% = $550.00 with core/amount', () => {
    let state = wizardReducer(initialWizardState(), { type: 'amount_edited', field: 'baseInput', value: '500' });
    state = wizardReducer(state, { type: 'calculated' });
    expect(state.totals).toEqual({ baseCents: 50_000, taxBufferCents: 5_000, totalCents: 55_000 });
  });

  it('editing either input or switching the buffer mode clears the calculation', () => {
    let state = wizardReducer(initialWizardState(), { type: 'amount_edited', field: 'baseInput', value: '500' });
    state = wizardReducer(state, { type: 'calculated' });
    expect(wizardReducer(state, { type: 'amount_edited', field: 'bufferInput', value: '12' }).totals).toBeNull();
    expect(wizardReducer(state, { type: 'amount_edited', field: 'baseInput', value: '500.00' }).totals).toBeNull();
    expect(wizardReducer(state, { type: 'buffer_mode_changed', mode: 'dollars' }).totals).toBeNull();
    // Choosing the mode that is already on changes nothing.
    expect(wizardReducer(state, { type: 'buffer_mode_changed', mode: 'percent' }).totals).not.toBeNull();
  });

  it('a bad input shows the spec message and leaves Continue disabled', () => {
    let state = wizardReducer(initialWizardState(), { type: 'amount_edited', field: 'baseInput', value: '5o0' });
    state = wizardReducer(state, { type: 'calculated' });
    expect(state.totals).toBeNull();
    expect(state.amountError).toBe('Both fields must contain only numbers or a decimal point.');
    state = wizardReducer(state, { type: 'amount_edited', field: 'baseInput', value: '0' });
    state = wizardReducer(state, { type: 'calculated' });
    expect(state.amountError).toBe('Please enter a positive total and non-negative buffer.');
  });
});

describe('resuming a saved draft (docs/rules.md#wizard-steps: the saved step, default 1)', () => {
  it('restores the amount inputs, the calculation, the choices and the saved step', () => {
    const draft = combine({
      currentStep: 5,
      sources: FUNDED,
      bufferMode: 'dollars',
      bufferInput: '50',
      useBoost: true,
      creationFeeSourceIdx: 1,
      cardType: 'single-use',
    });
    const state = restoreFromCombine(initialWizardState(), draft);
    expect(state.combineId).toBe('combine-1');
    expect(state.step).toBe(5);
    expect(state.amount).toEqual({ baseInput: '500', bufferInput: '50', bufferMode: 'dollars' });
    expect(state.totals?.totalCents).toBe(55_000);
    expect(state.choices).toEqual({ useBoost: true, creationFeeSourceIdx: 1, cardType: 'single-use' });
  });

  it('never resumes into Processing or Success', () => {
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 6, sources: FUNDED })).step).toBe(5);
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 7, sources: FUNDED })).step).toBe(5);
  });

  it('goes back to Sources when the sources no longer cover the total', () => {
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 4, sources: [source()] })).step).toBe(2);
  });

  it('opens the one review for a draft saved on step 4 with no BNPL checkout left to do (decision 052)', () => {
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 4, sources: FUNDED })).step).toBe(5);
    const bnpl = [source({ type: 'bnpl', provider: 'klarna', netCents: 55_000 })];
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 4, sources: bnpl, bnplStepCompleted: true })).step).toBe(4);
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 4, sources: bnpl, bnplStepCompleted: true, bnplCheckoutCompleted: true })).step).toBe(5);
  });

  it('does not open the BNPL setup without a BNPL source', () => {
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 3, sources: FUNDED })).step).toBe(2);
  });

  it('starts at the amount step when the saved amount is not valid, or no step was saved', () => {
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 4, baseInput: 'x', sources: FUNDED })).step).toBe(1);
    expect(restoreFromCombine(initialWizardState(), combine({ currentStep: 0, sources: FUNDED })).step).toBe(1);
  });

  it('drops a creation-fee payer that is no longer one of the sources', () => {
    expect(restoreFromCombine(initialWizardState(), combine({ creationFeeSourceIdx: 3 })).choices.creationFeeSourceIdx).toBe(-1);
  });
});

describe('the step machine reads the BNPL flags from the server draft', () => {
  it('has BNPL only when a BNPL source exists', () => {
    expect(machineState(2, combine()).hasBnpl).toBe(false);
    const withBnpl = combine({ sources: [source({ type: 'bnpl', provider: 'klarna' })], bnplStepCompleted: true });
    expect(machineState(2, withBnpl)).toEqual({ step: 2, hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: false });
  });
});

describe('step 2 Continue (core fundingCheck on the server figures)', () => {
  it('asks for a source first, then names what is missing', () => {
    expect(sourcesFunding(combine({ sources: [] }), -1)).toEqual({ ok: false, message: 'Please add at least one payment source' });
    expect(sourcesFunding(combine({ sources: [source()] }), -1)).toEqual({
      ok: false,
      message: 'The payment sources after fees only add up to $288.00 (needed: $550.00). Please add more.',
    });
  });

  it('passes at exactly the total and warns of overfunding only above one cent', () => {
    expect(sourcesFunding(combine({ sources: FUNDED }), -1)).toMatchObject({ ok: true, showOverfundInfo: false });
    const over = [source(), source({ id: 'src-2', netCents: 26_202 })];
    expect(sourcesFunding(combine({ sources: over }), -1)).toMatchObject({ ok: true, showOverfundInfo: true, overfundCents: 2 });
  });
});

describe('one Idempotency-Key per Create attempt', () => {
  const quote = { cardAmountCents: 54_990, totalChargedCents: 57_295, productFeeCents: 573 } as QuoteFigures;
  const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' as const };

  it('a retry of the same request keeps the key; a different request gets a new one', () => {
    const fingerprint = attemptFingerprint('combine-1', choices, quote);
    const attempt = { key: 'key-1', fingerprint };
    expect(keyForAttempt(attempt, fingerprint, () => 'fresh')).toBe('key-1');
    expect(keyForAttempt(null, fingerprint, () => 'fresh')).toBe('fresh');
    const otherChoice = attemptFingerprint('combine-1', { ...choices, cardType: 'single-use' }, quote);
    expect(keyForAttempt(attempt, otherChoice, () => 'fresh')).toBe('fresh');
    const otherFigures = attemptFingerprint('combine-1', choices, { ...quote, cardAmountCents: 55_000 });
    expect(keyForAttempt(attempt, otherFigures, () => 'fresh')).toBe('fresh');
  });

  it('a failure keeps the attempt for the retry; a changed quote or a success ends it', () => {
    let state: WizardUiState = { ...initialWizardState(), step: 5, combineId: 'combine-1' };
    state = wizardReducer(state, { type: 'attempt_started', key: 'key-1', fingerprint: 'f' });
    expect(state.step).toBe(6);
    const failed = wizardReducer(state, { type: 'create_failed' });
    expect(failed).toMatchObject({ step: 5, attempt: { key: 'key-1', fingerprint: 'f' } });
    const changed = wizardReducer(state, { type: 'quote_changed', quote });
    expect(changed).toMatchObject({ step: 5, attempt: null, changedQuote: quote });
    // Changing a choice afterwards is a new review: the notice about the old figures goes.
    expect(wizardReducer(changed, { type: 'choices_changed', choices: { cardType: 'single-use' } }).changedQuote).toBeNull();
  });

  it('going back to Sources after a changed quote drops the old figures, so the review fetches fresh ones', () => {
    const changed = wizardReducer({ ...initialWizardState(), step: 6, combineId: 'combine-1' }, { type: 'quote_changed', quote: { ...quote, cardAmountCents: 9_800 } });
    const atSources = wizardReducer(changed, { type: 'step_changed', step: 2 });
    expect(atSources).toMatchObject({ step: 2, changedQuote: null });
  });
});

describe('creationFeeIndexAfterRemoval: the fee choice follows its source when another is removed', () => {
  it('moves up with its source, stays before the removed one, and falls back to the new card when its own source goes', () => {
    expect(creationFeeIndexAfterRemoval(1, 0)).toBe(0);
    expect(creationFeeIndexAfterRemoval(2, 0)).toBe(1);
    expect(creationFeeIndexAfterRemoval(0, 1)).toBe(0);
    expect(creationFeeIndexAfterRemoval(1, 1)).toBe(-1);
    expect(creationFeeIndexAfterRemoval(-1, 0)).toBe(-1);
  });
});
