import type { Card } from '../../../contracts/cards';
import { formatUsd } from '../../../core/money';
import { PAYOUT_METHOD_LABELS } from '../../../core/plans';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { PROCESSING_NOTE } from './CashoutSuccess';
import type { Pending } from './use-cashout-form';

/** The confirm step: the amount, the card, where the money goes, the fee and what the user receives. */
export function CashoutConfirm({ pending, cards, busy, onCancel, onConfirm }: {
  pending: Pending | null;
  cards: readonly Card[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmModal
      open={pending !== null}
      onOpenChange={(open) => (open || busy ? undefined : onCancel())}
      title="Confirm cash-out"
      confirmLabel="Confirm Cash Out"
      busy={busy}
      onConfirm={onConfirm}
    >
      {pending && (
        <>
          <p>
            Cash out {formatUsd(pending.amountCents)} from card <span className="text-nowrap">•••• {cards.find((c) => c.id === pending.cardId)?.last4}</span> to{' '}
            {PAYOUT_METHOD_LABELS[pending.payoutMethod]}
            {pending.payTo ? (
              <>
                {' ('}
                <span className="text-nowrap">{pending.payTo}</span>)
              </>
            ) : null}
            ? The fee is {formatUsd(pending.feeCents)}; you receive {formatUsd(pending.netCents)}.
          </p>
          <p>{PROCESSING_NOTE}</p>
        </>
      )}
    </ConfirmModal>
  );
}
