import type { ChangeEvent, InputHTMLAttributes } from 'react';
import { FieldFrame, useFieldWiring } from '../../ui/Field';

/** A text field whose value is reformatted as typed (digits only, grouped card number). */
export function FormattedField({ name, label, required, format, ...inputProps }: { name: string; label: string; required?: boolean; format: (value: string) => string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'required' | 'id' | 'onChange'>) {
  const wiring = useFieldWiring({ name, required });
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const formatted = format(event.target.value);
    if (formatted !== event.target.value) event.target.value = formatted;
    return wiring.controlProps.onChange(event);
  };
  return (
    <FieldFrame wiring={wiring} label={label} required={required}>
      <input {...inputProps} {...wiring.controlProps} onChange={onChange} type="text" className="field-input" />
    </FieldFrame>
  );
}
