import { useId } from 'react';
import type { ReactNode } from 'react';
import { FieldError, FieldHint, RequiredMark } from '../../../ui/Field';

// The wizard's fields are controlled ones rather than the kit's registered react-hook-form fields:
// the amount step keeps its inputs in the wizard's reducer (they survive Back, Save for Later and
// resume), and the card forms reshape what is typed as it is typed (use-wizard-control.ts). They
// reuse the kit's label, hint, error and required mark so they look and read the same.

export type ControlProps = {
  id: string;
  required: boolean | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type WizardFieldProps = {
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  /** Shown only once the user tried to go on with a bad value (never while first typing). */
  error?: string | null;
  className?: string;
  /** Text shown before the control, e.g. '$'. */
  prefix?: string;
  children: (control: ControlProps) => ReactNode;
};

export function WizardField({ label, hint, required, error, className, prefix, children }: WizardFieldProps) {
  const id = useId();
  const inputId = `${id}-control`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control: ControlProps = {
    id: inputId,
    required: required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [errorId, hintId].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field-label" htmlFor={inputId}>
        {label}
        <RequiredMark required={required} />
      </label>
      {prefix ? (
        <div className="field-affix">
          <span className="field-prefix" aria-hidden="true">
            {prefix}
          </span>
          {children(control)}
        </div>
      ) : (
        children(control)
      )}
      <FieldHint id={hintId}>{hint}</FieldHint>
      <FieldError id={errorId} message={error ?? undefined} />
    </div>
  );
}
