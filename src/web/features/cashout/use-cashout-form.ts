// The cash-out form's state (docs/rules.md#cashout-checks): form → confirm → success, the payout
// details asked on first use, the server's refusals, and the cards shown. The views only draw it.
import { useEffect, useMemo, useState } from 'react';
import type { Card } from '../../../contracts/cards';
import { CASHOUT_FAILED_MESSAGE, CASHOUT_SUCCESS_MESSAGE, type CreateCashoutResponse } from '../../../contracts/cashouts';
import { cashoutFee } from '../../../core/fees';
import { parseMoneyInput } from '../../../core/money';
import { isPayoutMethod } from '../../../core/plans';
import type { PayoutMethod } from '../../../core/plans';
import { ApiError, errorMessage, newIdempotencyKey } from '../../lib/api';
import { usePayoutDetails } from '../../lib/payout-details-form';
import { useSingleFlight } from '../../lib/use-single-flight';
import { useZodForm } from '../../ui/Form';
import { useToast } from '../../ui/toast';
import { useCreateCashout, type NewPayoutMethod } from './api/cashouts';
import { apiFieldErrors, cashoutFormSchema, type CashoutChoice } from './cashout-form-schema';
import { usePayoutChoices, type Refused } from './use-payout-choices';

// `newMethod`: what the user typed for a method used the first time (saved before the cash-out);
// `payTo`: where the money goes, as the user recognises it, shown in the confirmation.
export type Pending = CashoutChoice & { feeCents: number; netCents: number; key: string; newMethod: NewPayoutMethod | null; payTo: string | null };
type Step = { name: 'form' } | { name: 'confirm'; pending: Pending } | { name: 'success'; answer: CreateCashoutResponse };
const FORM: Step = { name: 'form' };

export function useCashoutForm({ cards, initialCardId, onFinished }: { cards: readonly Card[]; initialCardId?: string | null; onFinished?: () => void }) {
  const toast = useToast();
  const createCashout = useCreateCashout();
  const [step, setStep] = useState<Step>(FORM);
  const [refused, setRefused] = useState<Refused | null>(null);
  // A refusal of the server without a field path: the form's own alert.
  const [formError, setFormError] = useState<string | null>(null);
  const payout = usePayoutChoices(refused);
  const details = usePayoutDetails();
  const success = step.name === 'success' ? step.answer : null;
  const pending = step.name === 'confirm' ? step.pending : null;

  // A card emptied by the cash-out stays in the list until the success modal is closed (docs/rules.md#card-figures).
  const shownCards = useMemo(() => cards.filter((card) => card.remainingAmountCents > 0 || card.id === success?.card.id), [cards, success]);
  const firstCard = shownCards.find((card) => card.id === initialCardId) ?? shownCards[0] ?? null;
  const schema = useMemo(() => cashoutFormSchema(payout.plan, shownCards), [payout.plan, shownCards]);
  // The user says how much; 'Whole balance' fills it in one tap.
  const form = useZodForm(schema, { defaultValues: { cardId: firstCard?.id ?? '', amount: '', payoutMethod: payout.defaultMethod } });
  const cardId = form.watch('cardId');
  const amountInput = form.watch('amount');
  const method = form.watch('payoutMethod');
  const selected = shownCards.find((card) => card.id === cardId) ?? null;

  // A newly chosen card starts with no amount: an amount typed for another card may not fit it.
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name === 'cardId') form.setValue('amount', '', { shouldValidate: false });
    });
    return () => subscription.unsubscribe();
  }, [form]);
  // The profile may arrive after the form: pick the default method once it is known.
  const { defaultMethod } = payout;
  useEffect(() => {
    if (!form.getValues('payoutMethod') && defaultMethod) form.setValue('payoutMethod', defaultMethod);
  }, [defaultMethod, form]);

  const parsed = parseMoneyInput(amountInput ?? '');
  const previewCents = parsed.ok && parsed.cents > 0 && selected && parsed.cents <= selected.remainingAmountCents ? parsed.cents : null;
  const preview = previewCents === null ? null : { amountCents: previewCents, ...cashoutFee({ amountCents: previewCents, plan: payout.plan, promoActive: payout.promoActive }) };

  const onSubmit = (choice: CashoutChoice) => {
    const chosen = choice.payoutMethod;
    let newMethod: NewPayoutMethod | null = null;
    let payTo = payout.savedDetail(chosen);
    if (payout.needsDetails(chosen)) {
      const checked = details.check(chosen);
      if (!checked) return;
      newMethod = { method: chosen, detail: checked.input.detail ?? '', ...(chosen === 'ach' ? { routingNumber: checked.input.routingNumber } : {}) };
      payTo = checked.stored;
    } else {
      details.clearErrors();
    }
    const fee = cashoutFee({ amountCents: choice.amountCents, plan: payout.plan, promoActive: payout.promoActive });
    setStep({ name: 'confirm', pending: { ...choice, feeCents: fee.feeCents, netCents: fee.netCents, key: newIdempotencyKey(), newMethod, payTo } });
  };

  // One confirmation at a time: a fast double click lands before `isPending` re-renders the
  // button as busy, and would save a new payout method twice (409).
  const confirm = useSingleFlight(async () => {
    if (!pending) return;
    try {
      const { cardId: card, amountCents, payoutMethod, key, newMethod } = pending;
      const answer = await createCashout.mutateAsync({ cardId: card, amountCents, payoutMethod, idempotencyKey: key, newMethod: newMethod ?? undefined });
      setRefused(null);
      setFormError(null);
      setStep({ name: 'success', answer });
      toast.success(CASHOUT_SUCCESS_MESSAGE);
    } catch (error) {
      setStep(FORM);
      refusal(error, pending.payoutMethod);
    }
  });

  /** Where a failed confirmation is told: beside the method, on the fields the API names, the form's alert, or a toast. */
  function refusal(error: unknown, chosen: PayoutMethod) {
    // Decision 172: nothing moved; the details are asked beside the method, for a retry.
    if (error instanceof ApiError && error.code === 'payout_method_needs_details') {
      setRefused({ method: chosen, message: error.message });
      return;
    }
    // A refusal the server explains (4xx): on the fields its `details` name by path, else the form's.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      const fieldErrors = apiFieldErrors(error.details);
      for (const { field, message } of fieldErrors) form.setError(field, { type: 'server', message });
      setFormError(fieldErrors.length > 0 ? null : error.message);
      return;
    }
    toast.error(`${CASHOUT_FAILED_MESSAGE}. ${errorMessage(error, 'Please try again.')}`);
  }

  const closeSuccess = () => {
    setStep(FORM);
    // docs/rules.md#wizard-steps: cards with nothing left drop out and the first remaining card is selected.
    const remaining = cards.filter((card) => card.remainingAmountCents > 0);
    const next = remaining.find((card) => card.id === cardId) ?? remaining[0] ?? null;
    details.reset();
    form.reset({ cardId: next?.id ?? '', amount: '', payoutMethod: form.getValues('payoutMethod') || defaultMethod });
    onFinished?.();
  };

  return {
    form,
    onSubmit: (choice: CashoutChoice) => {
      setFormError(null);
      onSubmit(choice);
    },
    payout,
    details,
    shownCards,
    selected,
    method: isPayoutMethod(method) ? method : null,
    preview,
    refused,
    formError,
    busy: createCashout.isPending,
    pending,
    cancelConfirm: () => setStep(FORM),
    confirm,
    success,
    closeSuccess,
  };
}

export type CashoutFormState = ReturnType<typeof useCashoutForm>;
