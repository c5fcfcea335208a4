import type { BufferMode } from '../../../../core/amount';
import type { Wizard } from '../use-wizard';
import { WizardField } from './WizardField';

const BUFFER_MODES: readonly { mode: BufferMode; label: string }[] = [
  { mode: 'percent', label: 'Percent (%)' },
  { mode: 'dollars', label: 'Dollars ($)' },
];

/** The tax buffer: its field (in dollars or a percent of the purchase) and the choice between the two. */
export function TaxBufferField({ wizard }: { wizard: Wizard }) {
  const { amount } = wizard.state;
  const { actions } = wizard;
  return (
    <div className="wizard-buffer">
      <WizardField
        label="Tax buffer"
        required
        prefix={amount.bufferMode === 'dollars' ? '$' : undefined}
        hint={amount.bufferMode === 'percent' ? 'Percent of the purchase amount' : 'A fixed dollar amount'}
      >
        {(control) => (
          <div className={amount.bufferMode === 'percent' ? 'wizard-suffix-input' : undefined}>
            <input
              {...control}
              className="field-input"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={amount.bufferInput}
              onChange={(event) => actions.editAmount('bufferInput', event.target.value)}
            />
            {amount.bufferMode === 'percent' && (
              <span className="wizard-suffix" aria-hidden="true">
                %
              </span>
            )}
          </div>
        )}
      </WizardField>
      <fieldset className="segmented">
        <legend className="visually-hidden">Enter the tax buffer as</legend>
        {BUFFER_MODES.map(({ mode, label }) => (
          <label key={mode} className="segmented-option">
            <input
              type="radio"
              name="buffer-mode"
              value={mode}
              checked={amount.bufferMode === mode}
              onChange={() => actions.setBufferMode(mode)}
            />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}
