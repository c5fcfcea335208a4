import { Button } from '../../../ui/Button';
import { ErrorState } from '../../../ui/ErrorState';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { errorMessage } from '../../../lib/api';
import type { Wizard } from '../use-wizard';
import { BoostChoice } from './BoostChoice';
import { Breakdown } from './FeeBreakdown';
import { CardTypeChoice, CreationFeeChoice } from './ReviewChoiceFields';
import { ReviewNotices } from './ReviewNotices';
import { useReviewQuote } from './use-review-quote';
import { WizardActions } from './WizardActions';

/**
 * Review (step 4 without BNPL, and step 5): the server's quote as a breakdown, and the choices
 * it depends on. Only step 5 offers 'Create Virtual Card' (core/wizard.ts).
 */
export function ReviewStep({ wizard, onStartOver }: { wizard: Wizard; onStartOver: () => void }) {
  const { combine, state, actions, view, pending } = wizard;
  const isFinal = view.primaryAction === 'create_card';
  const { quoteQuery, quote, stale } = useReviewQuote(wizard);

  if (!combine) return null;
  if (quoteQuery.isError && !quote) {
    return (
      <div className="wizard-step-body">
        <ErrorState
          title="Failed to load the fee breakdown"
          message={errorMessage(quoteQuery.error, 'Please try again.')}
          onRetry={() => void quoteQuery.refetch()}
          retrying={quoteQuery.isFetching}
          headingLevel={3}
        />
        <WizardActions onBack={actions.back} />
      </div>
    );
  }
  if (!quote) {
    return (
      <div className="wizard-loading">
        <Spinner label="Calculating your fees" showLabel />
      </div>
    );
  }

  return (
    <div className="wizard-step-body">
      <ReviewNotices
        completedElsewhere={wizard.completedElsewhere}
        changedQuote={state.changedQuote}
        onStartOver={onStartOver}
        onBackToSources={actions.backToSources}
      />
      <div className="review-layout">
        <div className="review-choices">
          <BoostChoice wizard={wizard} quote={quote} />
          <CreationFeeChoice combine={combine} choices={state.choices} onChange={actions.setChoices} />
          <CardTypeChoice choices={state.choices} onChange={actions.setChoices} />
        </div>
        <Breakdown combine={combine} quote={quote} updating={stale || quoteQuery.isFetching} />
      </div>
      <WizardActions onBack={actions.back} backDisabled={pending.create}>
        {isFinal ? (
          <Button size="lg" onClick={() => void actions.create(quote)} loading={pending.create} disabled={stale || !quote.canContinue || wizard.completedElsewhere}>
            <Icon name="card" size={20} />
            Create Virtual Card
          </Button>
        ) : (
          <Button onClick={actions.continueFromReview} disabled={!quote.canContinue}>
            Continue
            <Icon name="arrowRight" size={18} />
          </Button>
        )}
      </WizardActions>
    </div>
  );
}
