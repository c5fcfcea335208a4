import { useId } from 'react';
import type { ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import type { FieldValues, UseFormRegisterReturn } from 'react-hook-form';
import './field.css';

// Shared wiring of the form-field helpers (TextField, TextAreaField, SelectField, CheckboxField).
// They read the form from react-hook-form's context, so they must sit inside <Form> (or a
// FormProvider). docs/rules.md#screens: a field shows its error only once it was touched, or after a submit.

export type FieldBaseProps = {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
};

export type FieldWiring = {
  inputId: string;
  hintId: string | undefined;
  errorId: string | undefined;
  errorMessage: string | undefined;
  registration: UseFormRegisterReturn;
  /** Spread on the control: id, aria-invalid, aria-describedby, required and the registration. */
  controlProps: UseFormRegisterReturn & {
    id: string;
    required: boolean | undefined;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
  };
};

export function useFieldWiring({ name, hint, required }: Omit<FieldBaseProps, 'label'>): FieldWiring {
  const { register, getFieldState, formState } = useFormContext<FieldValues>();
  const id = useId();
  const state = getFieldState(name, formState);
  const errorMessage = state.error && (state.isTouched || formState.isSubmitted) ? state.error.message : undefined;
  const inputId = `${id}-control`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errorMessage ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const registration = register(name);
  return {
    inputId,
    hintId,
    errorId,
    errorMessage,
    registration,
    controlProps: {
      ...registration,
      id: inputId,
      required: required || undefined,
      'aria-invalid': errorMessage ? true : undefined,
      'aria-describedby': describedBy,
    },
  };
}

export function RequiredMark({ required }: { required?: boolean }) {
  return required ? (
    <span className="field-required" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
}

export function FieldHint({ id, children }: { id: string | undefined; children: ReactNode }) {
  if (!id || !children) return null;
  return (
    <p id={id} className="field-hint">
      {children}
    </p>
  );
}

export function FieldError({ id, message }: { id: string | undefined; message: string | undefined }) {
  if (!id || !message) return null;
  return (
    <p id={id} className="field-error">
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
        <path d="M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM12 8v4M12 16h.01" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {message}
    </p>
  );
}

type FieldFrameProps = {
  wiring: FieldWiring;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: ReactNode;
};

/** Label above, control, then hint and error below: the layout of text, select and area fields. */
export function FieldFrame({ wiring, label, hint, required, className, children }: FieldFrameProps) {
  return (
    <div className={['field', wiring.errorMessage ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field-label" htmlFor={wiring.inputId}>
        {label}
        <RequiredMark required={required} />
      </label>
      {children}
      <FieldHint id={wiring.hintId}>{hint}</FieldHint>
      <FieldError id={wiring.errorId} message={wiring.errorMessage} />
    </div>
  );
}
