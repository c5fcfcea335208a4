import { PROGRESS_STEP_COUNT } from '../../../../core/wizard';
import type { WizardState } from '../../../../core/wizard';
import { Icon } from '../../../ui/Icon';

/**
 * The labels of the progress bar's six steps. Without a BNPL source steps 3 and 4 do not happen
 * (the one review is step 5, docs/decisions/052): they show as skipped once passed.
 */
export function progressLabels(_hasBnpl: boolean): string[] {
  return ['Amount', 'Sources', 'BNPL Setup', 'BNPL Checkout', 'Review', 'Processing'];
}

type Props = { machine: WizardState; progressStep: number; done: boolean };

/** docs/rules.md#wizard-steps: the progress bar shows steps 1 to 6; an ordered list with aria-current on the step. */
export function WizardProgress({ machine, progressStep, done }: Props) {
  const labels = progressLabels(machine.hasBnpl);
  return (
    <nav className="wizard-progress" aria-label="Card creation progress">
      <p className="wizard-progress-count">
        {done ? (
          'All steps complete'
        ) : (
          <>
            Step {progressStep} of {PROGRESS_STEP_COUNT}
            <span className="wizard-progress-current">: {labels[progressStep - 1]}</span>
          </>
        )}
      </p>
      <div className="wizard-progress-track" aria-hidden="true">
        <div className="wizard-progress-fill" style={{ width: `${done ? 100 : ((progressStep - 1) / (PROGRESS_STEP_COUNT - 1)) * 100}%` }} />
      </div>
      <ol className="wizard-progress-list">
        {labels.map((label, index) => {
          const step = index + 1;
          const skipped = (step === 3 || step === 4) && !machine.hasBnpl && progressStep > 2;
          const status = done || step < progressStep ? (skipped ? 'skipped' : 'complete') : step === progressStep ? 'current' : 'upcoming';
          return (
            <li key={step} className={`wizard-progress-item is-${status}`} aria-current={status === 'current' ? 'step' : undefined}>
              <span className="wizard-progress-dot" aria-hidden="true">
                {status === 'complete' ? <Icon name="check" size={14} /> : step}
              </span>
              <span className="wizard-progress-label">
                {label}
                <span className="visually-hidden">
                  {status === 'complete' ? ' (completed)' : status === 'skipped' ? ' (not needed)' : status === 'current' ? ' (current step)' : ''}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
