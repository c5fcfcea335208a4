import type { Card, CardSpending } from '../../../../contracts/cards';
import { Money } from '../../../ui/Money';

/**
 * Original, spent and remaining (docs/rules.md#screens): original = spent + remaining, since purchases,
 * cash-outs and use as a source all count as spent (docs/rules.md#card-figures). The details view passes the
 * breakdown of spent, shown under it once known.
 */
export function CardAmounts({ card, spending }: { card: Card; spending?: CardSpending | undefined }) {
  const parts: Array<[string, number]> = spending
    ? [
        ['Purchases', spending.purchasesCents],
        ['Cash-outs', spending.cashoutsCents],
        ['Used as a source', spending.sourceUseCents],
      ]
    : [];
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
      {parts
        .filter(([, cents]) => cents > 0)
        .map(([label, cents]) => (
          <div key={label} className="card-amounts-part">
            <dt>{label}</dt>
            <dd>
              <Money cents={cents} />
            </dd>
          </div>
        ))}
      <div>
        <dt>Remaining</dt>
        <dd>
          <Money cents={card.remainingAmountCents} />
        </dd>
      </div>
    </dl>
  );
}
