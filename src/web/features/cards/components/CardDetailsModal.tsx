import type { Card } from '../../../../contracts/cards';
import { errorMessage } from '../../../lib/api';
import { usePublicConfig } from '../../../lib/public-config';
import { Button } from '../../../ui/Button';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { useToast } from '../../../ui/toast';
import { useCard, useCardSpending, useSetFrozen } from '../api/cards';
import { CARD_PAGE_MESSAGES, NETWORK_LABELS, TYPE_LABELS, formatDate } from '../card-format';
import { CardActions } from './CardActions';
import { CardAmounts } from './CardAmounts';
import { CardControlsSection } from './CardControlsSection';
import { CardFace } from './CardFace';
import { CardStatus } from './CardStatus';
import { PurchaseForm } from './PurchaseForm';
import { RevealSection } from './RevealSection';
import { TransactionList } from './TransactionList';

type CardDetailsModalProps = {
  card: Card | null;
  onClose: () => void;
  onCashOut?: (card: Card) => void;
};

/** The details modal of /my-cards (docs/rules.md#screens) with freeze, reveal, demo purchases and the transactions. */
export function CardDetailsModal({ card, onClose, onCashOut }: CardDetailsModalProps) {
  return (
    <Modal open={card !== null} onOpenChange={(open) => (open ? undefined : onClose())} title={card ? `Card ending ${card.last4}` : 'Card'} size="lg">
      {card && <CardDetails initial={card} onCashOut={onCashOut} />}
    </Modal>
  );
}

function CardDetails({ initial, onCashOut }: { initial: Card; onCashOut?: (card: Card) => void }) {
  const { data: card = initial } = useCard(initial.id, initial);
  const spending = useCardSpending(initial.id);
  const freeze = useSetFrozen();
  const toast = useToast();
  const { demoMode } = usePublicConfig();

  async function toggleFrozen() {
    const frozen = !card.frozen;
    try {
      await freeze.mutateAsync({ cardId: card.id, frozen });
      toast.success(frozen ? 'Card frozen. It cannot be spent, cashed out or used as a source.' : 'Card unfrozen.');
    } catch (error) {
      toast.error(errorMessage(error, frozen ? 'Failed to freeze the card' : 'Failed to unfreeze the card'));
    }
  }

  return (
    <div className="card-details">
      <div className="card-details-top">
        <CardFace card={card} />
        <div className="card-details-side">
          <RevealSection card={card} />
          {card.can.freeze && (
            <div className="freeze-control">
              <Button variant={card.frozen ? 'primary' : 'secondary'} size="sm" onClick={() => void toggleFrozen()} loading={freeze.isPending}>
                {card.frozen ? 'Unfreeze card' : 'Freeze card'}
              </Button>
              <p className="text-small text-muted">
                {card.frozen ? 'Unfreezing is instant too.' : 'Freezing is instant: nothing can be charged until you unfreeze it.'}
              </p>
            </div>
          )}
        </div>
      </div>

      {card.promoApplied && (
        <Notice tone="success" title={CARD_PAGE_MESSAGES.promoNote}>
          This card was created with the launch promo: product fees are halved for 12 months.
        </Notice>
      )}

      <dl className="card-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <CardStatus card={card} />
          </dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{TYPE_LABELS[card.type]}</dd>
        </div>
        <div>
          <dt>Network</dt>
          <dd>{NETWORK_LABELS[card.network]}</dd>
        </div>
        <div>
          <dt>Issued</dt>
          <dd>{formatDate(card.issuedAt)}</dd>
        </div>
        <div>
          <dt>{card.status === 'expired' ? 'Expired' : 'Valid until'}</dt>
          <dd>{formatDate(card.validUntil)}</dd>
        </div>
      </dl>
      <CardAmounts card={card} spending={spending.data} />
      <CardActions card={card} size="md" onCashOut={onCashOut} />

      <section className="card-details-section" aria-labelledby={`controls-${card.id}`}>
        <h3 id={`controls-${card.id}`}>Controls</h3>
        <CardControlsSection cardId={card.id} />
      </section>

      {/* Offered on frozen and expired cards too, so the decline and its reason can be seen. */}
      {demoMode && (card.status === 'active' || card.status === 'expired') && (
        <section className="card-details-section" aria-labelledby={`purchase-${card.id}`}>
          <h3 id={`purchase-${card.id}`}>Simulate a purchase</h3>
          <PurchaseForm card={card} />
        </section>
      )}

      <section className="card-details-section" aria-labelledby={`transactions-${card.id}`}>
        <h3 id={`transactions-${card.id}`}>Transactions</h3>
        <TransactionList card={card} />
      </section>
    </div>
  );
}
