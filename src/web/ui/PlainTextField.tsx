import type { HTMLAttributes, ReactNode } from 'react';
import './field.css';

export type PlainTextFieldProps = {
  id: string;
  label: ReactNode;
  hint: ReactNode;
  value: string;
  /** Shown under the hint and tied to the input (aria-describedby), announced when it appears. */
  error: string | undefined;
  inputMode: HTMLAttributes<HTMLInputElement>['inputMode'];
  autoComplete: string;
  onChange: (value: string) => void;
};

/**
 * A required text field whose value and error the caller keeps, outside react-hook-form (unlike
 * TextField): the payout details asked in Settings and on a first cash-out, checked by the core
 * when the form is sent.
 */
export function PlainTextField({ id, label, hint, value, error, inputMode, autoComplete, onChange }: PlainTextFieldProps) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field-label" htmlFor={id}>
        {label}
        <span className="field-required" aria-hidden="true">
          {' '}
          *
        </span>
      </label>
      <input
        id={id}
        className="field-input"
        value={value}
        required
        inputMode={inputMode}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
