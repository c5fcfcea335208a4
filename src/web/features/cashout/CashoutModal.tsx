import { errorMessage } from '../../lib/api';
import { ErrorState } from '../../ui/ErrorState';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { LOAD_ELIGIBLE_FAILED, useCashoutCards } from './api/cashouts';
import { CashoutForm } from './CashoutForm';

type CashoutModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The card to preselect (the one whose Cash Out was pressed). */
  cardId?: string | null;
};

/**
 * The /cashout flow as a modal, for /my-cards: the same form, rules, confirm and success steps.
 * Its payout methods follow docs/rules.md#payout-methods-by-plan (saved methods the plan allows, else the plan's).
 */
export function CashoutModal({ open, onOpenChange, cardId }: CashoutModalProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Cash Out" size="md">
      {open && <CashoutModalBody cardId={cardId ?? null} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function CashoutModalBody({ cardId, onDone }: { cardId: string | null; onDone: () => void }) {
  const cards = useCashoutCards();
  if (cards.isPending) return <Spinner label="Loading your cards" showLabel />;
  if (cards.isError) {
    return <ErrorState compact headingLevel={3} title={LOAD_ELIGIBLE_FAILED} message={errorMessage(cards.error, 'Please try again.')} onRetry={() => void cards.refetch()} retrying={cards.isFetching} />;
  }
  return (
    <CashoutForm
      compact
      cards={cards.data}
      initialCardId={cardId}
      onFinished={() => {
        void cards.refetch();
        onDone();
      }}
    />
  );
}
