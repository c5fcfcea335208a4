import type { ReactNode } from 'react';
import type { Card } from '../../../../contracts/cards';
import { cardArtClass } from '../../../ui/card-art';
import { Money } from '../../../ui/Money';
import { NETWORK_LABELS } from '../card-format';
import { CardStatus } from './CardStatus';

type CardFaceProps = {
  card: Card;
  /** Replaces the masked number, e.g. with the revealed one. */
  number?: ReactNode;
  children?: ReactNode;
};

/** The front of a virtual card: network, masked number, status and what is left on it. */
export function CardFace({ card, number, children }: CardFaceProps) {
  return (
    <div className={`card-visual ${cardArtClass(card.network, card.type, card.status !== 'active' || card.frozen)}`}>
      <div className="card-visual-top">
        <span className="card-visual-brand">PayWeave</span>
        <CardStatus card={card} />
      </div>
      <p className="card-visual-number">{number ?? <span aria-label={`Card number ending ${card.last4}`}>{card.maskedNumber}</span>}</p>
      <div className="card-visual-bottom">
        <div>
          <span className="card-visual-label">Remaining</span>
          <Money cents={card.remainingAmountCents} className="card-visual-amount" />
        </div>
        <span className="card-visual-network">{NETWORK_LABELS[card.network]}</span>
      </div>
      {children}
    </div>
  );
}
