// The details of a payout method the user enters the first time it is used (for ACH the
// bank's routing number with the account number, decision 171), shared by Settings → Payout
// Methods and the cash-out form: the values, each field's error, the core's check, and the fields.
import { useState } from 'react';
import { PAYOUT_DETAIL_FIELDS, payoutDetail, ROUTING_NUMBER_FIELD } from '../../core/payout-details';
import type { PayoutDetailField, PayoutDetailInput } from '../../core/payout-details';
import type { PayoutMethod } from '../../core/plans';
import { PlainTextField } from '../ui/PlainTextField';

type Values = Required<PayoutDetailInput>;
const EMPTY: Values = { detail: '', routingNumber: '' };

export type PayoutDetails = {
  values: Values;
  errors: Partial<Record<PayoutDetailField, string>>;
  /** Typing in a field clears that field's error. */
  set: (field: PayoutDetailField, value: string) => void;
  /**
   * The details for `method` as the API takes them, with what will be kept ("•••• 6789"), once the
   * core accepts them; otherwise null, and each field shows its error.
   */
  check: (method: PayoutMethod) => { input: PayoutDetailInput; stored: string } | null;
  clearErrors: () => void;
  reset: () => void;
};

export function usePayoutDetails(): PayoutDetails {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<PayoutDetails['errors']>({});
  return {
    values,
    errors,
    set: (field, value) => {
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
    check: (method) => {
      const input: PayoutDetailInput = method === 'ach' ? values : { detail: values.detail };
      const checked = payoutDetail(method, input);
      setErrors(checked.ok ? {} : checked.errors);
      return checked.ok ? { input, stored: checked.stored } : null;
    },
    clearErrors: () => setErrors({}),
    reset: () => {
      setValues(EMPTY);
      setErrors({});
    },
  };
}

/** The fields for `method`: the routing number first for ACH, then the method's own field. */
export function PayoutDetailFields({ method, details, ids, detailHint }: { method: PayoutMethod; details: PayoutDetails; ids: { routingNumber: string; detail: string }; detailHint?: string }) {
  const field = PAYOUT_DETAIL_FIELDS[method];
  return (
    <>
      {method === 'ach' && (
        <PlainTextField
          id={ids.routingNumber}
          label={ROUTING_NUMBER_FIELD.label}
          inputMode={ROUTING_NUMBER_FIELD.inputMode}
          autoComplete={ROUTING_NUMBER_FIELD.autoComplete}
          hint={ROUTING_NUMBER_FIELD.hint}
          value={details.values.routingNumber}
          error={details.errors.routingNumber}
          onChange={(value) => details.set('routingNumber', value)}
        />
      )}
      <PlainTextField
        id={ids.detail}
        label={field.label}
        inputMode={field.inputMode}
        autoComplete={field.autoComplete}
        hint={detailHint ?? field.hint}
        value={details.values.detail}
        error={details.errors.detail}
        onChange={(value) => details.set('detail', value)}
      />
    </>
  );
}
