import type { Card } from '../../../../contracts/cards';
import { Badge, type BadgeTone } from '../../../ui/Badge';
import { STATUS_LABELS } from '../card-format';

const TONES: Record<Card['status'], BadgeTone> = { active: 'success', cashed_out: 'neutral', expired: 'warning', closed: 'neutral' };

/** The card's status, and 'Frozen' beside it when it is frozen (a flag on any status). */
export function CardStatus({ card }: { card: Pick<Card, 'status' | 'frozen'> }) {
  return (
    <span className="card-status">
      <Badge tone={TONES[card.status]}>{STATUS_LABELS[card.status]}</Badge>
      {card.frozen && <Badge tone="info">Frozen</Badge>}
    </span>
  );
}
