import type { Card } from '../../../../contracts/cards';
import { Money } from '../../../ui/Money';

/**
 * Original, spent and remaining (spec §2). Purchases count as spent; money that left by a
 * cash-out or as a combine source is shown on its own line, so the three figures always add up.
 */
export function CardAmounts({ card }: { card: Card }) {
  const movedCents = card.originalAmountCents - card.amountSpentCents - card.remainingAmountCents;
  return (
    <dl className="card-amounts">
      <div>
        <dt>Original</dt>
        <dd>
          <Money cents={card.originalAmountCents} />
        </dd>
      </div>
      <div>
        <dt>Spent</dt>
        <dd>
          <Money cents={card.amountSpentCents} />
        </dd>
      </div>
      {movedCents > 0 && (
        <div>
          <dt>Cashed out or reused</dt>
          <dd>
            <Money cents={movedCents} />
          </dd>
        </div>
      )}
      <div>
        <dt>Remaining</dt>
        <dd>
          <Money cents={card.remainingAmountCents} />
        </dd>
      </div>
    </dl>
  );
}
