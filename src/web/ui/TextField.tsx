import type { InputHTMLAttributes } from 'react';
import { FieldFrame, useFieldWiring } from './Field';
import type { FieldBaseProps } from './Field';

type TextFieldProps = FieldBaseProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'required' | 'id' | 'children'> & {
    type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'search' | 'number' | 'date';
    /** Shown before the input, e.g. '$' for amounts. */
    prefix?: string;
    className?: string;
  };

export function TextField({ name, label, hint, required, prefix, className, type = 'text', ...inputProps }: TextFieldProps) {
  const wiring = useFieldWiring({ name, hint, required });
  const input = <input {...inputProps} {...wiring.controlProps} type={type} className="field-input" />;
  return (
    <FieldFrame wiring={wiring} label={label} hint={hint} required={required} className={className}>
      {prefix ? (
        <div className="field-affix">
          <span className="field-prefix" aria-hidden="true">
            {prefix}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
    </FieldFrame>
  );
}
