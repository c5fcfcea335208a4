import type { SelectHTMLAttributes } from 'react';
import { FieldFrame, useFieldWiring } from './Field';
import type { FieldBaseProps } from './Field';

export type SelectOption = { value: string; label: string; disabled?: boolean };

type SelectFieldProps = FieldBaseProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'required' | 'id' | 'children'> & {
    options: readonly SelectOption[];
    /** First, empty choice such as 'Select a provider'; its value is ''. */
    placeholder?: string;
    className?: string;
  };

export function SelectField({ name, label, hint, required, options, placeholder, className, ...selectProps }: SelectFieldProps) {
  const wiring = useFieldWiring({ name, hint, required });
  return (
    <FieldFrame wiring={wiring} label={label} hint={hint} required={required} className={className}>
      <select {...selectProps} {...wiring.controlProps} className="field-input field-select">
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
