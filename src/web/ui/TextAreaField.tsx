import type { TextareaHTMLAttributes } from 'react';
import { FieldFrame, useFieldWiring } from './Field';
import type { FieldBaseProps } from './Field';

type TextAreaFieldProps = FieldBaseProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'required' | 'id' | 'children'> & {
    className?: string;
  };

export function TextAreaField({ name, label, hint, required, className, rows = 5, ...areaProps }: TextAreaFieldProps) {
  const wiring = useFieldWiring({ name, hint, required });
  return (
    <FieldFrame wiring={wiring} label={label} hint={hint} required={required} className={className}>
      <textarea {...areaProps} {...wiring.controlProps} rows={rows} className="field-input field-textarea" />
    </FieldFrame>
  );
}
