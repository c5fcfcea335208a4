// The create-card wizard's step machine (docs/rules.md#wizard-steps, docs/rules.md#wizard-back).
//
// Steps: 1 Amount, 2 Sources, 3 BNPL setup, 4 BNPL checkout or Review, 5 Review, 6 Processing,
// 7 Success; the progress bar covers 1-6.
//
// This module only decides where Continue and Back lead. The guards on Continue (amount
// calculated on step 1, fundingCheck on step 2, a valid BNPL card entry on step 4) belong to
// the caller, which calls nextStep only once its guard passes.
//
// How the spec's contradictions are reconciled (docs/decisions/052, superseding 003):
// - There is one review, step 5, the only place money is charged ('Create Virtual Card'). Step 4
//   is the BNPL checkout, shown only while a BNPL source still needs its one-time card. So
//   without BNPL the flow is 1 → 2 → 5 → 6 → 7; with BNPL 1 → 2 → 3 → 4 → 5 → 6 → 7; a BNPL combine
//   whose setup and checkout are already done goes from 2 (or 3) straight to 5. The spec's
//   literal reading (step 4 "otherwise Review" then step 5 Review again) showed the same screen
//   twice.
// - Back: "from 4 to 3 when BNPL is present, otherwise one step back (minimum 1)" and "from the
//   step after 3, Back goes to 2". Read together:
//     * step 4 (the BNPL checkout) → 3, as stated;
//     * step 5 (Review) → 2: Sources is where a user reviewing the quote goes to change it;
//     * steps 1-3: one step back, minimum 1 (3 → 2 as stated).
//   Processing (6) and Success (7) have no Back: money is moving or has moved.
// - A step 4 without a pending checkout (an old saved draft) shows the review and leads to 5.
// - Going back keeps bnplStepCompleted / bnplCheckoutCompleted. If the BNPL sources change on
//   step 2, the caller resets them with `withBnplPresence`.

export type WizardStep = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface WizardState {
  step: WizardStep;
  hasBnpl: boolean;
  bnplStepCompleted: boolean;
  bnplCheckoutCompleted: boolean;
}

export type WizardView =
  | 'amount'
  | 'sources'
  | 'bnpl_setup'
  | 'bnpl_checkout'
  | 'review'
  | 'processing'
  | 'success';

export const WIZARD_STEPS: ReadonlyArray<{ step: WizardStep; title: string }> = [
  { step: 1, title: 'Amount' },
  { step: 2, title: 'Sources' },
  { step: 3, title: 'BNPL Setup' },
  { step: 4, title: 'BNPL Checkout' },
  { step: 5, title: 'Review' },
  { step: 6, title: 'Processing' },
  { step: 7, title: 'Card Created Successfully' },
];

/** The progress bar shows steps 1-6; success keeps it full. */
export const PROGRESS_STEP_COUNT = 6;

export const INITIAL_WIZARD_STATE: WizardState = {
  step: 1,
  hasBnpl: false,
  bnplStepCompleted: false,
  bnplCheckoutCompleted: false,
};

export const VIEW_TITLES: Readonly<Record<WizardView, string>> = {
  amount: 'Amount',
  sources: 'Sources',
  bnpl_setup: 'BNPL Setup',
  bnpl_checkout: 'BNPL Checkout',
  review: 'Review',
  processing: 'Processing',
  success: 'Card Created Successfully',
};

export type PrimaryAction =
  | 'calculate_then_continue'
  | 'continue'
  | 'submit_bnpl_card'
  | 'create_card'
  | null;

export interface StepView {
  view: WizardView;
  title: string;
  /** 1-6 for the progress bar. */
  progressStep: number;
  primaryAction: PrimaryAction;
  canGoBack: boolean;
  /** 'Save for Later' is offered on the BNPL steps (docs/rules.md#save-for-later). */
  canSaveForLater: boolean;
}

function bnplCheckoutPending(state: WizardState): boolean {
  return state.hasBnpl && !state.bnplCheckoutCompleted;
}

function viewOf(state: WizardState): WizardView {
  switch (state.step) {
    case 1: return 'amount';
    case 2: return 'sources';
    case 3: return 'bnpl_setup';
    case 4: return bnplCheckoutPending(state) ? 'bnpl_checkout' : 'review';
    case 5: return 'review';
    case 6: return 'processing';
    case 7: return 'success';
  }
}

function primaryActionOf(state: WizardState, view: WizardView): PrimaryAction {
  switch (view) {
    case 'amount': return 'calculate_then_continue';
    case 'sources':
    case 'bnpl_setup': return 'continue';
    case 'bnpl_checkout': return 'submit_bnpl_card';
    case 'review': return state.step === 5 ? 'create_card' : 'continue';
    case 'processing':
    case 'success': return null;
  }
}

export function stepView(state: WizardState): StepView {
  assertState(state);
  const view = viewOf(state);
  return {
    view,
    title: VIEW_TITLES[view],
    progressStep: Math.min(state.step, PROGRESS_STEP_COUNT),
    primaryAction: primaryActionOf(state, view),
    canGoBack: state.step >= 2 && state.step <= 5,
    canSaveForLater: view === 'bnpl_setup' || view === 'bnpl_checkout',
  };
}

function assertState(state: WizardState): void {
  if (!Number.isInteger(state.step) || state.step < 1 || state.step > 7) {
    throw new RangeError(`wizard step must be 1-7, got ${String(state.step)}`);
  }
}

/**
 * Where Continue leads (docs/rules.md#funding "Wizard forward"), with the BNPL flags it sets on the way:
 * leaving step 3 marks the BNPL step done; submitting the BNPL card on step 4 marks checkout done.
 * Step 6 → 7 is the creation finishing; step 7 is final.
 */
export function nextStep(state: WizardState): WizardState {
  assertState(state);
  switch (state.step) {
    case 1:
      return { ...state, step: 2 };
    case 2:
      if (state.hasBnpl && !state.bnplStepCompleted) return { ...state, step: 3 };
      return { ...state, step: bnplCheckoutPending(state) ? 4 : 5 };
    case 3:
      return { ...state, step: bnplCheckoutPending(state) ? 4 : 5, bnplStepCompleted: true };
    case 4:
      return bnplCheckoutPending(state)
        ? { ...state, step: 5, bnplCheckoutCompleted: true }
        : { ...state, step: 5 };
    case 5:
      return { ...state, step: 6 };
    case 6:
      return { ...state, step: 7 };
    case 7:
      return state;
  }
}

/** Where Back leads; see the reconciliation at the top of this file. */
export function previousStep(state: WizardState): WizardState {
  assertState(state);
  switch (state.step) {
    case 1:
      return state;
    case 2:
      return { ...state, step: 1 };
    case 3:
      return { ...state, step: 2 };
    case 4:
      return { ...state, step: state.hasBnpl ? 3 : 2 };
    case 5:
      return { ...state, step: 2 };
    case 6:
    case 7:
      return state;
  }
}

/**
 * Called when the source list changes on step 2. Adding the first BNPL source means its setup
 * and checkout are still to do; removing every BNPL source makes the flags meaningless.
 */
export function withBnplPresence(state: WizardState, hasBnpl: boolean): WizardState {
  if (hasBnpl === state.hasBnpl) return state;
  return { ...state, hasBnpl, bnplStepCompleted: false, bnplCheckoutCompleted: false };
}
