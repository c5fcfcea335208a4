import { formatUsd } from '../../../../core/money';
import type { Quote } from '../../../../contracts/combines';
import { Button, ButtonLink } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';

/** Above the review: the card was made elsewhere, or the figures changed when creating it. */
export function ReviewNotices({
  completedElsewhere,
  changedQuote,
  onStartOver,
  onBackToSources,
}: {
  completedElsewhere: boolean;
  changedQuote: Quote | null;
  onStartOver: () => void;
  onBackToSources: () => void;
}) {
  return (
    <>
      {completedElsewhere && (
        <Notice tone="info" role="alert" title="Your card already exists">
          This card was already created, perhaps in another tab or window. Nothing more was charged.
          <div className="button-row">
            <ButtonLink to="/my-cards" variant="secondary">
              Go to My Cards
            </ButtonLink>
            <Button variant="secondary" onClick={onStartOver}>
              Start a new card
            </Button>
          </div>
        </Notice>
      )}
      {changedQuote && changedQuote.canContinue && (
        <Notice tone="warning" role="alert" title="The figures changed, so nothing was charged">
          Something changed between your review and the creation (for example the last launch-promo spot was taken). Your
          sources were not charged. Please check the new figures below and create your card again.
        </Notice>
      )}
      {changedQuote && !changedQuote.canContinue && (
        <Notice tone="warning" role="alert" title="The figures changed, so nothing was charged">
          Something changed between your review and the creation (for example the last launch-promo spot was taken), and
          your sources now fall {formatUsd(changedQuote.remainingToFundCents)} short of the card amount. Your sources
          were not charged. Please add more on the Sources step.
          <div className="button-row">
            <Button variant="secondary" onClick={onBackToSources}>
              Back to Sources
            </Button>
          </div>
        </Notice>
      )}
    </>
  );
}
