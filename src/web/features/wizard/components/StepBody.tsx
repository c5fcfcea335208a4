import type { Wizard } from '../use-wizard';
import { AmountStep } from './AmountStep';
import { BnplCheckoutStep } from './BnplCheckoutStep';
import { BnplSetupStep } from './BnplSetupStep';
import { ProcessingStep, SuccessStep } from './ResultSteps';
import { ReviewStep } from './ReviewStep';
import { SourcesStep } from './SourcesStep';

/** The body of the wizard's current step. */
export function StepBody({ wizard, onCreateAnother }: { wizard: Wizard; onCreateAnother: () => void }) {
  switch (wizard.view.view) {
    case 'amount':
      return (
        <AmountStep
          wizard={wizard}
          prefillNote={
            wizard.state.prefill
              ? 'You are using one of your PayWeave cards as a source. Set the amount you need; the card is preselected on the next step.'
              : null
          }
        />
      );
    case 'sources':
      return <SourcesStep wizard={wizard} />;
    case 'bnpl_setup':
      return <BnplSetupStep wizard={wizard} />;
    case 'bnpl_checkout':
      return <BnplCheckoutStep wizard={wizard} />;
    case 'review':
      return <ReviewStep wizard={wizard} onStartOver={onCreateAnother} />;
    case 'processing':
      return <ProcessingStep />;
    case 'success':
      return <SuccessStep result={wizard.state.result} onCreateAnother={onCreateAnother} />;
  }
}
