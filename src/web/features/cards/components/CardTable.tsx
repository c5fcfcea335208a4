import type { Card } from '../../../../contracts/cards';
import { Button } from '../../../ui/Button';
import { Money } from '../../../ui/Money';
import { NETWORK_LABELS, TYPE_LABELS, formatDate } from '../card-format';
import { CardStatus } from './CardStatus';

/** The list view of /my-cards: one row per card, newest first; details open the modal. */
export function CardTable({ cards, onViewDetails }: { cards: Card[]; onViewDetails: (card: Card) => void }) {
  return (
    <div className="card-table-wrap stack-table-wrap">
      <table className="card-table stack-table">
        <caption className="visually-hidden">Your cards, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Card</th>
            <th scope="col">Status</th>
            <th scope="col">Type</th>
            <th scope="col">Issued</th>
            <th scope="col" className="num">
              Original
            </th>
            <th scope="col" className="num">
              Spent
            </th>
            <th scope="col" className="num">
              Remaining
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {cards.map((card) => (
            <tr key={card.id}>
              <th scope="row">
                <span className="card-table-number" aria-label={`Card ending ${card.last4}`}>
                  •••• {card.last4}
                </span>
                <span className="card-table-network text-small text-muted">{NETWORK_LABELS[card.network]}</span>
              </th>
              <td data-label="Status">
                <CardStatus card={card} />
              </td>
              <td data-label="Type">{TYPE_LABELS[card.type]}</td>
              <td data-label="Issued">{formatDate(card.issuedAt)}</td>
              <td className="num" data-label="Original">
                <Money cents={card.originalAmountCents} />
              </td>
              <td className="num" data-label="Spent">
                <Money cents={card.amountSpentCents} />
              </td>
              <td className="num" data-label="Remaining">
                <Money cents={card.remainingAmountCents} />
              </td>
              <td className="stack-table-actions">
                <Button variant="secondary" size="sm" onClick={() => onViewDetails(card)} aria-label={`View Full Details of card ending ${card.last4}`}>
                  Details
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
