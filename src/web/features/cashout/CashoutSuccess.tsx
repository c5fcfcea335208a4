import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import { CASHOUT_SUCCESS_MESSAGE } from '../../../contracts/cashouts';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PAYOUT_METHOD_LABELS } from '../../../core/plans';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

export const PROCESSING_NOTE = 'Processing takes 1-3 business days.';

/** The success modal: what was cashed out, the fee, what the user receives and what is left on the card. */
export function CashoutSuccess({ answer, onClose }: { answer: CreateCashoutResponse | null; onClose: () => void }) {
  return (
    <Modal
      open={answer !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={CASHOUT_SUCCESS_MESSAGE}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {answer && (
        <div className="cashout-receipt">
          <dl className="cashout-summary">
            <div>
              <dt>Cash-out amount</dt>
              <dd>{formatUsd(answer.cashout.amountCents)}</dd>
            </div>
            <div>
              <dt>Fee ({formatPpmAsPercent(answer.feeRatePpm)})</dt>
              <dd>{formatUsd(answer.cashout.feeCents)}</dd>
            </div>
            <div className="cashout-summary-total">
              <dt>You receive</dt>
              <dd>{formatUsd(answer.cashout.netAmountCents)}</dd>
            </div>
            <div>
              <dt>Payout method</dt>
              <dd>{PAYOUT_METHOD_LABELS[answer.cashout.payoutMethod]}</dd>
            </div>
            <div>
              <dt>Left on card •••• {answer.cashout.cardLast4}</dt>
              <dd>{formatUsd(answer.card.remainingAmountCents)}</dd>
            </div>
          </dl>
          <p className="text-muted">
            {PROCESSING_NOTE} {answer.card.status === 'cashed_out' ? 'The card is now Cashed Out.' : ''}
          </p>
        </div>
      )}
    </Modal>
  );
}
