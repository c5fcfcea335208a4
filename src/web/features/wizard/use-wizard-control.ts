import { useController, useFormContext } from 'react-hook-form';
import type { FieldValues } from 'react-hook-form';

// The wizard's card forms keep their values in react-hook-form (useZodForm), with controlled
// controls inside WizardField: the typed text is reshaped as it is typed (grouped card numbers,
// digits-only CVV, MM/YY), so each control sets its value rather than being registered.

type Options = {
  /** Where this control's error is kept when it shares one with another control (the expiry month and year share 'expiry'). */
  errorField?: string;
  /** Called after every edit, e.g. to take away a decline the edit answers. */
  onEdit?: () => void;
};

/**
 * One field of the form in context: its value, a setter, and the error to show. An error is set
 * on submit (by the schema, or by the API's `details`) and stays until the field is edited.
 */
export function useWizardControl(name: string, { errorField = name, onEdit }: Options = {}) {
  const { control, clearErrors } = useFormContext<FieldValues>();
  const { field, formState } = useController({ name, control });
  const message = formState.errors[errorField]?.message;
  return {
    value: field.value as string,
    ref: field.ref,
    onBlur: field.onBlur,
    error: typeof message === 'string' ? message : null,
    set(value: string) {
      field.onChange(value);
      clearErrors(errorField);
      onEdit?.();
    },
  };
}
