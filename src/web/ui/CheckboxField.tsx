import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldError, FieldHint, RequiredMark, useFieldWiring } from './Field';

type CheckboxFieldProps = {
  name: string;
  /** May hold links (e.g. to the terms); keep them inside the label so a click toggles nothing else. */
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'required' | 'id' | 'type' | 'children'>;

export function CheckboxField({ name, label, hint, required, className, ...inputProps }: CheckboxFieldProps) {
  const wiring = useFieldWiring({ name, hint, required });
  return (
    <div className={['field', 'field--checkbox', wiring.errorMessage ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <div className="checkbox-row">
        <input {...inputProps} {...wiring.controlProps} type="checkbox" className="checkbox-input" />
        <label className="checkbox-label" htmlFor={wiring.inputId}>
          {label}
          <RequiredMark required={required} />
        </label>
      </div>
      <FieldHint id={wiring.hintId}>{hint}</FieldHint>
      <FieldError id={wiring.errorId} message={wiring.errorMessage} />
    </div>
  );
}
