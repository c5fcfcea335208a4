import type { CardControls } from '../../../../contracts/card-controls';
import { ApiError, errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { CheckboxField } from '../../../ui/CheckboxField';
import { Form, useZodForm } from '../../../ui/Form';
import { SelectField } from '../../../ui/SelectField';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import { useSetCardControls } from '../api/card-controls';
import { CATEGORY_OPTIONS, FIELD_OF_API_PATH, LIMIT_FIELDS, controlsForm, formValuesOf, requestOf, type ControlsFormOutput } from '../card-controls-form';

const LOCK_OPTIONS = [
  { value: 'off', label: 'Any merchant' },
  { value: 'first', label: 'The first merchant that charges it' },
  { value: 'named', label: 'One merchant I name' },
];

const CATEGORY_MODES = [
  { value: 'any', label: 'Any category' },
  { value: 'block', label: 'Block the ticked categories' },
  { value: 'allow_only', label: 'Allow only the ticked categories' },
];

type FieldError = { path: string; message: string };

function fieldErrorsOf(error: unknown): FieldError[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return [];
  return error.details.filter((d): d is FieldError => typeof d?.path === 'string' && typeof d?.message === 'string');
}

/** Edits a card's spend controls (docs/rules.md#card-controls); the server checks them and says what is wrong, field by field. */
export function CardControlsForm({ cardId, controls, onDone }: { cardId: string; controls: CardControls; onDone: () => void }) {
  const save = useSetCardControls(cardId);
  const toast = useToast();
  const initial = formValuesOf(controls);
  const form = useZodForm(controlsForm, { defaultValues: initial });
  const lockMode = form.watch('lockMode');
  const categoryMode = form.watch('categoryMode');

  async function submit(values: ControlsFormOutput) {
    try {
      await save.mutateAsync(requestOf(values));
      toast.success('Controls saved. They apply to the next purchase.');
      onDone();
    } catch (error) {
      for (const { path, message } of fieldErrorsOf(error)) {
        const field = FIELD_OF_API_PATH[path];
        if (field) form.setError(field, { message });
      }
      toast.error(errorMessage(error, 'The controls could not be saved. Please try again.'));
    }
  }

  return (
    <Form form={form} onSubmit={submit} aria-label="Card controls" className="card-controls-form">
      <p className="text-small text-muted">Leave a limit empty for none. Windows end now: "daily" is the last 24 hours.</p>
      <div className="form-row">
        {LIMIT_FIELDS.map(({ name, label }) => (
          <TextField key={name} name={name} label={label} prefix="$" inputMode="decimal" autoComplete="off" />
        ))}
      </div>
      {/* defaultValue too: the select's first option is read back as the form's value on mount otherwise. */}
      <SelectField name="lockMode" label="Merchant lock" options={LOCK_OPTIONS} defaultValue={initial.lockMode} />
      {lockMode === 'named' && <TextField name="lockMerchant" label="Merchant" maxLength={80} autoComplete="off" />}
      <SelectField name="categoryMode" label="Merchant categories" options={CATEGORY_MODES} defaultValue={initial.categoryMode} />
      {categoryMode !== 'any' && (
        <fieldset className="card-controls-categories">
          <legend className="text-small">Categories</legend>
          {CATEGORY_OPTIONS.map(({ value, label }) => (
            <CheckboxField key={value} name={`categories.${value}`} label={label} />
          ))}
        </fieldset>
      )}
      <div className="form-actions">
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Save controls
        </Button>
      </div>
    </Form>
  );
}
