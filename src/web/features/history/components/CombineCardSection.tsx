import { Link } from 'react-router';
import type { Combine } from '../../../../contracts/combines';
import { Money } from '../../../ui/Money';
import { cardStatusLabel } from '../history-format';

/** The card a combine made: last digits, status, amount and balance, with a link to My Cards. */
export function CombineCardSection({ card, headingLevel }: { card: Combine['card']; headingLevel: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section aria-label="Card" className="history-section">
      <Heading>Card</Heading>
      {card ? (
        <dl className="history-facts">
          <div>
            <dt>Card</dt>
            <dd>•••• {card.last4}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{cardStatusLabel(card.status, card.frozen)}</dd>
          </div>
          <div>
            <dt>Card amount</dt>
            <dd>
              <Money cents={card.originalAmountCents} />
            </dd>
          </div>
          <div>
            <dt>Balance</dt>
            <dd>
              <Money cents={card.remainingAmountCents} />
            </dd>
          </div>
        </dl>
      ) : (
        <p className="text-muted">Card details not available.</p>
      )}
      {card && (
        <p className="text-small">
          <Link to="/my-cards">Go to My Cards</Link>
        </p>
      )}
    </section>
  );
}
