import { useState } from 'react';
import type { ChangeEvent } from 'react';
import { centsToInputString, formatUsd, parseMoneyInput } from '../../../core/money';
import { FieldFrame, useFieldWiring } from '../../ui/Field';

/**
 * The amount in dollars, clamped to the card's balance as it is typed (docs/rules.md#amount-step), and saying so
 * beside the field when it happens (a silent change of a money amount is not trusted).
 */
export function AmountField({ max }: { max: number | null }) {
  const [clampedTo, setClampedTo] = useState<number | null>(null);
  const hint = max !== null ? `Up to ${formatUsd(max)}` : undefined;
  const wiring = useFieldWiring({ name: 'amount', required: true, hint });
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const parsed = parseMoneyInput(event.target.value);
    if (max !== null && parsed.ok && parsed.cents > max) {
      event.target.value = centsToInputString(max);
      setClampedTo(max);
    } else {
      setClampedTo(null);
    }
    return wiring.controlProps.onChange(event);
  };
  return (
    <FieldFrame wiring={wiring} label="Amount" required hint={hint}>
      <div className="field-affix">
        <span className="field-prefix" aria-hidden="true">
          $
        </span>
        <input
          {...wiring.controlProps}
          onChange={onChange}
          type="number"
          inputMode="decimal"
          min="0.01"
          step="0.01"
          max={max !== null ? centsToInputString(max) : undefined}
          className="field-input"
        />
      </div>
      {clampedTo !== null && (
        <p className="field-note" role="status">
          Set to the card&apos;s balance, {formatUsd(clampedTo)}: you cannot cash out more than is on the card.
        </p>
      )}
    </FieldFrame>
  );
}
