import type { Card } from '../../../contracts/cards';
import { Form } from '../../ui/Form';
import { CashoutConfirm } from './CashoutConfirm';
import { CashoutEmpty } from './CashoutEmpty';
import { CashoutFields } from './CashoutFields';
import { CashoutSuccess } from './CashoutSuccess';
import { useCashoutForm } from './use-cashout-form';
import './cashout.css';

export { PROCESSING_NOTE } from './CashoutSuccess';

/**
 * The cash-out form of /cashout and of the My Cards modal: card, amount (clamped to the balance),
 * payout method (the plan's rule, docs/rules.md#payout-methods-by-plan), a live fee preview from the core, the confirm
 * modal, processing and the success modal. The server decides; this only previews. The state is
 * `useCashoutForm`'s; each step is its own view.
 */
export function CashoutForm({ cards, initialCardId, onFinished, compact = false }: {
  cards: readonly Card[];
  initialCardId?: string | null;
  /** Called when the success modal is closed (the caller refreshes its cards). */
  onFinished?: () => void;
  compact?: boolean;
}) {
  const state = useCashoutForm({ cards, initialCardId, onFinished });
  const success = <CashoutSuccess answer={state.success} onClose={state.closeSuccess} />;

  if (state.shownCards.length === 0) {
    return (
      <>
        <CashoutEmpty compact={compact} />
        {success}
      </>
    );
  }

  return (
    <>
      <Form form={state.form} onSubmit={state.onSubmit} className="cashout-form">
        <CashoutFields state={state} compact={compact} />
      </Form>
      <CashoutConfirm pending={state.pending} cards={state.shownCards} busy={state.busy} onCancel={state.cancelConfirm} onConfirm={state.confirm} />
      {success}
    </>
  );
}
