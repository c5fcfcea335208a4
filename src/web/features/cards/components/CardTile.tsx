import { useEffect, useRef, useState } from 'react';
import type { Card } from '../../../../contracts/cards';
import { Icon } from '../../../ui/Icon';
import { CARD_PAGE_MESSAGES, TYPE_LABELS, formatDate } from '../card-format';
import { CardActions } from './CardActions';
import { CardAmounts } from './CardAmounts';
import { CardFace } from './CardFace';

/**
 * A grid card that flips (docs/rules.md#screens): the front is the card, the back its original, spent and
 * remaining amounts with the actions. The hidden face is inert, so keyboard and screen-reader
 * users only ever meet the side that is showing. Each face's button names what it does ('Flip',
 * 'Flip back'), so they are plain buttons, not one toggle with a pressed state.
 */
export function CardTile({ card, onViewDetails, onCashOut }: { card: Card; onViewDetails: () => void; onCashOut?: (card: Card) => void }) {
  const [flipped, setFlipped] = useState(false);
  // The button just pressed goes inert with its face, which would drop keyboard focus to the page:
  // it moves to the other face's flip button once that face is showing (not on the first render).
  const frontFlip = useRef<HTMLButtonElement>(null);
  const backFlip = useRef<HTMLButtonElement>(null);
  const flippedByUser = useRef(false);
  useEffect(() => {
    if (flippedByUser.current) (flipped ? backFlip : frontFlip).current?.focus();
  }, [flipped]);
  const flip = (to: boolean) => {
    flippedByUser.current = true;
    setFlipped(to);
  };
  return (
    <li className={flipped ? 'card-tile card-tile--flipped' : 'card-tile'} aria-label={`Card ending ${card.last4}`}>
      <div className="card-tile-inner">
        <div className="card-tile-face card-tile-front" inert={flipped}>
          <CardFace card={card} />
          <div className="card-tile-meta">
            <span>
              {TYPE_LABELS[card.type]} · Issued {formatDate(card.issuedAt)}
            </span>
            {card.promoApplied && <span className="card-promo-note">{CARD_PAGE_MESSAGES.promoNote}</span>}
          </div>
          <button ref={frontFlip} type="button" className="card-tile-flip" onClick={() => flip(true)} aria-label={`Flip card ending ${card.last4}`}>
            <Icon name="refresh" size={16} />
            Flip
          </button>
        </div>
        <div className="card-tile-face card-tile-back" inert={!flipped}>
          <h3 className="card-tile-back-title">Card ending {card.last4}</h3>
          <CardAmounts card={card} />
          <CardActions card={card} onViewDetails={onViewDetails} onCashOut={onCashOut} />
          <button ref={backFlip} type="button" className="card-tile-flip" onClick={() => flip(false)} aria-label={`Flip back card ending ${card.last4}`}>
            <Icon name="refresh" size={16} />
            Flip back
          </button>
        </div>
      </div>
    </li>
  );
}
