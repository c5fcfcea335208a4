import { isPayoutMethod, PAYOUT_METHOD_LABELS } from '../../../core/plans';
import { Button } from '../../ui/Button';
import { PayoutDetailFields } from '../../lib/payout-details-form';
import type { PayoutMethodsPanelState } from './use-payout-methods-panel';

/** Adding a payout method: what the plan still allows, and where the money goes (decision 171). */
export function AddPayoutMethodForm({ state }: { state: PayoutMethodsPanelState }) {
  const { choice, busy, ids } = state;
  return (
    <form className="payout-add" onSubmit={state.add} noValidate>
      <div className="field">
        <label className="field-label" htmlFor={ids.select}>
          Payout method
          <span className="field-required" aria-hidden="true">
            {' '}
            *
          </span>
        </label>
        <select id={ids.select} className="field-input field-select" value={choice} required onChange={(event) => state.choose(event.target.value)}>
          <option value="">Select a payout method</option>
          {state.addable.map((m) => (
            <option key={m} value={m}>
              {PAYOUT_METHOD_LABELS[m]}
            </option>
          ))}
        </select>
      </div>
      {isPayoutMethod(choice) && <PayoutDetailFields method={choice} details={state.entered} ids={{ routingNumber: ids.routing, detail: ids.detail }} />}
      <Button type="submit" loading={busy?.startsWith('add:') ?? false} disabled={busy !== null}>
        Add Payout Method
      </Button>
    </form>
  );
}
