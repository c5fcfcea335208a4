import { useMemo, useState } from 'react';
import type { ErrorOption, FieldErrors } from 'react-hook-form';
import { DECLINE_TEST_CARD, detectBrand, groupCardNumber } from '../../../core/cards';
import { isProviderAllowed, isSourceType, SOURCE_TYPE_LABELS, SOURCE_TYPES } from '../../../core/fees';
import { centsToInputString } from '../../../core/money';
import type { AddSourceRequest, Combine } from '../../../contracts/combines';
import { usePublicConfig } from '../../lib/public-config';
import { useSingleFlight } from '../../lib/use-single-flight';
import { useZodForm } from '../../ui/Form';
import { useToast } from '../../ui/toast';
import type { ActiveCard } from './api';
import { declineMessage, INTERNAL_SOURCE_LABEL } from './labels';
import { apiErrorsByField, EMPTY_SOURCE_FORM, initialSourceForm, kindOf, sourceFormSchema, sourcePreview } from './source-form-model';
import type { FormType, SourceField } from './source-form-model';
import type { AddSourceOutcome, SourcePrefill } from './use-wizard';

export type SourceFormProps = {
  combine: Combine;
  activeCards: ActiveCard[];
  prefill: SourcePrefill | null;
  onPrefillUsed: () => void;
  onAdd: (source: AddSourceRequest) => Promise<AddSourceOutcome>;
  adding: boolean;
  onAdded: () => void;
};

/**
 * Step 2's add-source form, without its views: the values (useZodForm; a refused check is a
 * toast and an error on its field), the submit, and what the API answered: a decline beside the
 * form, a field error on the field its `details` path names, any other refusal as a form alert.
 */
export function useSourceForm({ combine, activeCards, prefill, onPrefillUsed, onAdd, adding, onAdded }: SourceFormProps) {
  const toast = useToast();
  const { demoMode } = usePublicConfig();
  const [declined, setDeclined] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);

  // The card a 'Use as Source' link named is offered even when the card list is not available.
  const cardChoices = useMemo(() => {
    const list = [...activeCards];
    if (prefill && !list.some((c) => c.id === prefill.sourceCardId)) {
      list.push({ id: prefill.sourceCardId, last4: '', network: '', status: 'active', frozen: false, remainingAmountCents: prefill.amountCents ?? 0 });
    }
    return list;
  }, [activeCards, prefill]);
  const schema = useMemo(() => sourceFormSchema(cardChoices), [cardChoices]);
  // Errors are the submit's (and stay until their field is edited), and focus stays on the button: the toast says what to fix.
  const [defaultValues] = useState(() => initialSourceForm(prefill, combine));
  const form = useZodForm(schema, { defaultValues, mode: 'onSubmit', reValidateMode: 'onSubmit', shouldFocusError: false });
  const values = form.watch();

  const remainingCents = combine.funding.remainingToFundCents;
  const fullyFunded = remainingCents === 0 && combine.sources.length > 0;
  const kind = kindOf(values.type);
  const isCard = values.type !== '' && values.type !== 'bnpl' && values.type !== 'internal';
  const chosenCard = cardChoices.find((c) => c.id === values.sourceCardId) ?? null;
  const suggested = combine.funding.suggestedChargeCents[kind];
  const suggestedCents = kind === 'internal' && chosenCard ? Math.min(suggested, chosenCard.remainingAmountCents) : suggested;
  const typeOptions: { value: FormType; label: string }[] = [
    ...SOURCE_TYPES.map((type) => ({ value: type, label: SOURCE_TYPE_LABELS[type] })),
    ...(cardChoices.length > 0 ? [{ value: 'internal' as const, label: INTERNAL_SOURCE_LABEL }] : []),
  ];

  // An edit answers a decline or a refusal: the notice goes, and Add Source asks again.
  const onEdit = () => {
    setDeclined(null);
    setRefused(null);
  };

  const onTypeChange = (type: string) => {
    // A provider only makes sense for its type; the number already typed may name the brand.
    const brand = detectBrand(form.getValues('cardNumber'));
    const provider = isSourceType(type) && brand && isProviderAllowed(type, brand) ? brand : '';
    form.setValue('type', type);
    form.setValue('provider', provider);
    form.setValue('sourceCardId', type === 'internal' ? (cardChoices[0]?.id ?? '') : '');
    form.clearErrors('type');
    onEdit();
  };

  /** A number typed or picked: the provider, when none is chosen yet, is the brand it names. */
  const onCardNumber = (grouped: string) => {
    const { type, provider } = form.getValues();
    const brand = detectBrand(grouped);
    if (provider === '' && brand && isSourceType(type) && isProviderAllowed(type, brand)) form.setValue('provider', brand);
  };

  const pickTestNumber = (number: string) => {
    const grouped = groupCardNumber(number);
    form.setValue('cardNumber', grouped);
    form.clearErrors('cardNumber');
    onEdit();
    onCardNumber(grouped);
  };

  const fillExactAmount = () => {
    form.setValue('amount', centsToInputString(suggestedCents));
    form.clearErrors('amount');
    onEdit();
  };

  const onInvalid = (errors: FieldErrors) => {
    if (fullyFunded || adding) return form.clearErrors();
    const message = Object.values(errors).find((error) => typeof error?.message === 'string')?.message;
    if (typeof message === 'string') toast.error(message);
  };

  // One submit at a time: each pre-authorises a card, and a fast double click lands before
  // `adding` re-renders the button as busy.
  const submitOnce = useSingleFlight(async (request: AddSourceRequest) => {
    setDeclined(null);
    setRefused(null);
    const outcome = await onAdd(request);
    if (outcome.ok) {
      // The card number and CVV leave the browser's memory as soon as the server has them.
      form.reset(EMPTY_SOURCE_FORM);
      if (prefill) onPrefillUsed();
      onAdded();
    } else if (outcome.declined) {
      // Everything typed stays, so Try again is one click; the message says what happened.
      const cardNumber = form.getValues('cardNumber');
      setDeclined(isCard ? declineMessage({ serverMessage: outcome.message, cardNumber, demoMode, declineTestNumber: DECLINE_TEST_CARD }) : outcome.message);
    } else {
      // Each field error on the field its `details` path names; a refusal that names none is said above the button.
      const onFields = apiErrorsByField(outcome.fieldErrors);
      for (const [field, message] of onFields) setFieldError(field, { type: 'server', message });
      if (onFields.length === 0) setRefused(outcome.message);
    }
  });
  const onValid = async (request: AddSourceRequest) => {
    if (fullyFunded || adding) return;
    await submitOnce(request);
  };

  // 'expiry' is one error for two fields, so error names are wider than the values' names.
  const setFieldError = form.setError as (name: SourceField, error: ErrorOption) => void;
  const errorOf = (field: SourceField): string | null => {
    const message = (form.formState.errors as FieldErrors)[field]?.message;
    return typeof message === 'string' ? message : null;
  };

  const preview = sourcePreview(values, combine);
  return { form, values, demoMode, declined, refused, fullyFunded, remainingCents, isCard, cardChoices, typeOptions, suggestedCents, preview, adding, errorOf, onEdit, onTypeChange, onCardNumber, pickTestNumber, fillExactAmount, onValid, onInvalid };
}

export type SourceFormState = ReturnType<typeof useSourceForm>;

