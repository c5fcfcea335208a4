import { describe, expect, it } from 'vitest';
import {
  INITIAL_WIZARD_STATE,
  nextStep,
  previousStep,
  stepView,
  WIZARD_STEPS,
  withBnplPresence,
} from './wizard';
import type { WizardState, WizardStep } from './wizard';

const at = (step: WizardStep, over: Partial<WizardState> = {}): WizardState => ({
  ...INITIAL_WIZARD_STATE,
  step,
  ...over,
});

describe('wizard steps (docs/rules.md#wizard-steps)', () => {
  it('has seven steps with the spec titles', () => {
    expect(WIZARD_STEPS.map((s) => s.title)).toEqual([
      'Amount', 'Sources', 'BNPL Setup', 'BNPL Checkout', 'Review', 'Processing', 'Card Created Successfully',
    ]);
  });
  it('shows the progress bar over steps 1-6; success keeps it at 6', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((s) => stepView(at(s as WizardStep)).progressStep)).toEqual([1, 2, 3, 4, 5, 6, 6]);
  });
});

describe('wizard forward (docs/rules.md#wizard-steps)', () => {
  it('goes 1 → 2', () => {
    expect(nextStep(at(1)).step).toBe(2);
  });
  it('goes 2 → 3 with BNPL not yet done', () => {
    expect(nextStep(at(2, { hasBnpl: true })).step).toBe(3);
  });
  it('goes 2 → 4 with the BNPL setup done but its checkout still to do', () => {
    expect(nextStep(at(2, { hasBnpl: true, bnplStepCompleted: true })).step).toBe(4);
  });
  it('goes 2 → 5 when the BNPL setup and checkout are both done: one review (decision 052)', () => {
    expect(nextStep(at(2, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true })).step).toBe(5);
  });
  it('goes 2 → 5 without BNPL: the single review, with Create Virtual Card (decision 052)', () => {
    expect(nextStep(at(2)).step).toBe(5);
    expect(stepView(nextStep(at(2)))).toMatchObject({ view: 'review', primaryAction: 'create_card' });
  });
  it('goes 3 → 5 when the checkout was already done (back to setup and on again)', () => {
    expect(nextStep(at(3, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true })).step).toBe(5);
  });
  it('marks the BNPL step done leaving 3 for 4', () => {
    expect(nextStep(at(3, { hasBnpl: true }))).toEqual(at(4, { hasBnpl: true, bnplStepCompleted: true }));
  });
  it('shows the BNPL card entry on 4 with BNPL and no checkout, and submitting it marks checkout done and goes to 5', () => {
    const s = at(4, { hasBnpl: true, bnplStepCompleted: true });
    expect(stepView(s)).toMatchObject({ view: 'bnpl_checkout', title: 'BNPL Checkout', primaryAction: 'submit_bnpl_card' });
    expect(nextStep(s)).toEqual(at(5, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true }));
  });
  it('shows the review on an old draft saved on 4 without a pending checkout, and moves to 5', () => {
    expect(stepView(at(4))).toMatchObject({ view: 'review', title: 'Review', primaryAction: 'continue' });
    expect(stepView(at(4, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true })).view).toBe('review');
    expect(nextStep(at(4)).step).toBe(5);
  });
  it("offers 'Create Virtual Card' only on 5, then 6 processing, then 7 success", () => {
    expect(stepView(at(5))).toMatchObject({ view: 'review', primaryAction: 'create_card' });
    expect(nextStep(at(5)).step).toBe(6);
    expect(stepView(at(6))).toMatchObject({ view: 'processing', primaryAction: null });
    expect(nextStep(at(6)).step).toBe(7);
    expect(stepView(at(7))).toMatchObject({ view: 'success', title: 'Card Created Successfully', primaryAction: null });
    expect(nextStep(at(7)).step).toBe(7);
  });
  it('walks a full BNPL flow 1 → 2 → 3 → 4 → 5 → 6 → 7', () => {
    let s = at(1, { hasBnpl: true });
    const seen: string[] = [];
    while (s.step !== 7) {
      seen.push(`${s.step}:${stepView(s).view}`);
      s = nextStep(s);
    }
    expect(seen).toEqual(['1:amount', '2:sources', '3:bnpl_setup', '4:bnpl_checkout', '5:review', '6:processing']);
  });
  it('walks a flow without BNPL 1 → 2 → 5 → 6 → 7: one review, never steps 3 or 4', () => {
    let s = at(1);
    const seen: number[] = [];
    while (s.step !== 7) {
      seen.push(s.step);
      s = nextStep(s);
    }
    expect(seen).toEqual([1, 2, 5, 6]);
  });
});

describe('wizard back (docs/rules.md#wizard-back, reconciled in wizard.ts)', () => {
  it('goes 3 → 2', () => {
    expect(previousStep(at(3, { hasBnpl: true })).step).toBe(2);
  });
  it('goes 4 → 3 when BNPL is present', () => {
    expect(previousStep(at(4, { hasBnpl: true, bnplStepCompleted: true })).step).toBe(3);
    expect(previousStep(at(4, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true })).step).toBe(3);
  });
  it('goes 4 → 2 without BNPL: step 4 is then the step after 3, and step 3 does not exist', () => {
    expect(previousStep(at(4)).step).toBe(2);
  });
  it('goes 5 → 2: the review is a step after 3', () => {
    expect(previousStep(at(5)).step).toBe(2);
    expect(previousStep(at(5, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true })).step).toBe(2);
  });
  it('goes one step back from 2, and never below 1', () => {
    expect(previousStep(at(2)).step).toBe(1);
    expect(previousStep(at(1)).step).toBe(1);
  });
  it('has no back from processing or success', () => {
    expect(previousStep(at(6)).step).toBe(6);
    expect(previousStep(at(7)).step).toBe(7);
    expect(stepView(at(6)).canGoBack).toBe(false);
    expect(stepView(at(7)).canGoBack).toBe(false);
    expect(stepView(at(1)).canGoBack).toBe(false);
  });
  it('keeps the BNPL flags when going back', () => {
    const s = at(5, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true });
    expect(previousStep(s)).toEqual({ ...s, step: 2 });
  });
  it('never leaves steps 1-7', () => {
    for (const step of [1, 2, 3, 4, 5, 6, 7] as const) {
      for (const hasBnpl of [false, true]) {
        for (const done of [false, true]) {
          const s = at(step, { hasBnpl, bnplStepCompleted: done, bnplCheckoutCompleted: done });
          expect(nextStep(s).step).toBeGreaterThanOrEqual(1);
          expect(nextStep(s).step).toBeLessThanOrEqual(7);
          expect(previousStep(s).step).toBeGreaterThanOrEqual(1);
        }
      }
    }
  });
});

describe("'Save for Later' on the BNPL steps only", () => {
  it('is offered on BNPL setup and BNPL checkout', () => {
    expect(stepView(at(3, { hasBnpl: true })).canSaveForLater).toBe(true);
    expect(stepView(at(4, { hasBnpl: true, bnplStepCompleted: true })).canSaveForLater).toBe(true);
    expect(stepView(at(4)).canSaveForLater).toBe(false);
    expect(stepView(at(2)).canSaveForLater).toBe(false);
  });
});

describe('withBnplPresence resets BNPL progress when the BNPL sources appear or disappear', () => {
  it('resets the flags on change and keeps the state otherwise', () => {
    const done = at(2, { hasBnpl: true, bnplStepCompleted: true, bnplCheckoutCompleted: true });
    expect(withBnplPresence(done, true)).toBe(done);
    expect(withBnplPresence(done, false)).toEqual(at(2));
    expect(withBnplPresence(at(2), true)).toEqual(at(2, { hasBnpl: true }));
  });
  it('refuses a step outside 1-7', () => {
    expect(() => nextStep({ ...INITIAL_WIZARD_STATE, step: 8 as WizardStep })).toThrow(RangeError);
  });
});
