import type { Card } from '../../../../contracts/cards';
import { Button, ButtonLink } from '../../../ui/Button';
import { cashOutBlocker, cashOutHref, sourceBlocker, sourceHref } from '../card-format';

type CardActionsProps = {
  card: Card;
  onViewDetails?: () => void;
  /** Opens the cash-out modal (docs/rules.md#cashout-checks, My Cards); without it Cash Out links to /cashout. */
  onCashOut?: (card: Card) => void;
  size?: 'sm' | 'md';
};

/**
 * View Full Details, Cash Out and Use as Source. The last two appear only when the server says
 * the card can do them (docs/rules.md#screens: active with a balance; DECISIONS record 007: an expired card
 * can still be cashed out); otherwise the reason is said instead (docs/rules.md#cashout-checks zero-balance messages).
 */
export function CardActions({ card, onViewDetails, onCashOut, size = 'sm' }: CardActionsProps) {
  const label = `card ending ${card.last4}`;
  const blockers = [...new Set([cashOutBlocker(card), sourceBlocker(card)].filter((m): m is string => m !== null))];
  return (
    <div className="card-actions">
      <div className="card-actions-buttons">
        {onViewDetails && (
          <Button variant="secondary" size={size} onClick={onViewDetails} aria-label={`View Full Details of ${label}`}>
            View Full Details
          </Button>
        )}
        {card.can.cashOut &&
          (onCashOut ? (
            <Button variant="primary" size={size} onClick={() => onCashOut(card)} aria-label={`Cash Out ${label}`}>
              Cash Out
            </Button>
          ) : (
            <ButtonLink to={cashOutHref(card)} variant="primary" size={size} aria-label={`Cash Out ${label}`}>
              Cash Out
            </ButtonLink>
          ))}
        {card.can.useAsSource && (
          <ButtonLink to={sourceHref(card)} variant="accent" size={size} aria-label={`Use ${label} as Source`}>
            Use as Source
          </ButtonLink>
        )}
      </div>
      {blockers.length > 0 && card.status !== 'cashed_out' && card.status !== 'closed' && (
        <ul className="card-actions-notes">
          {blockers.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
