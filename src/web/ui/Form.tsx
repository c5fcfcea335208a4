import type { FormHTMLAttributes, ReactNode } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { FieldValues, SubmitErrorHandler, SubmitHandler, UseFormProps, UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';

/**
 * useForm with a zod schema and the app's validation timing: a field is checked when it loses
 * focus and then on every change, and every field on submit (docs/rules.md#screens: errors after touch).
 */
export function useZodForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
): UseFormReturn<z.input<Schema>, unknown, z.output<Schema>> {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    mode: 'onTouched',
    ...options,
    resolver: zodResolver(schema),
  });
}

type FormProps<Input extends FieldValues, Output extends FieldValues> = Omit<
  FormHTMLAttributes<HTMLFormElement>,
  'onSubmit' | 'onInvalid' | 'children'
> & {
  form: UseFormReturn<Input, unknown, Output>;
  onSubmit: SubmitHandler<Output>;
  /** Called instead of onSubmit when the schema refused the values (the fields already show why). */
  onInvalid?: SubmitErrorHandler<Input>;
  children: ReactNode;
};

/**
 * A <form> that provides `form` to the field helpers. Native validation is off (noValidate):
 * messages come from the schema, the same in every browser, and stay in the page's own style.
 */
export function Form<Input extends FieldValues, Output extends FieldValues>({
  form,
  onSubmit,
  onInvalid,
  children,
  className,
  ...rest
}: FormProps<Input, Output>) {
  return (
    <FormProvider {...form}>
      <form {...rest} noValidate className={['form', className ?? ''].filter(Boolean).join(' ')} onSubmit={form.handleSubmit(onSubmit, onInvalid)}>
        {children}
      </form>
    </FormProvider>
  );
}
