import { useEffect, useMemo, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useSingleFlight } from '../../lib/use-single-flight';
import { FormProvider, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { Card } from '../../../contracts/cards';
import { CASHOUT_FAILED_MESSAGE, CASHOUT_SUCCESS_MESSAGE, type CreateCashoutResponse } from '../../../contracts/cashouts';
import { CASHOUT_MESSAGES, cashoutMethodChoices, validateCashout } from '../../../core/cashout';
import { cashoutFee } from '../../../core/fees';
import { centsToInputString, formatPpmAsPercent, formatUsd, parseMoneyInput } from '../../../core/money';
import { isPayoutMethod, PAYOUT_METHOD_LABELS, payoutMethodList, PLANS } from '../../../core/plans';
import type { PayoutMethod, PlanId } from '../../../core/plans';
import { ApiError, errorMessage, newIdempotencyKey } from '../../lib/api';
import { Button, ButtonLink } from '../../ui/Button';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { EmptyState } from '../../ui/EmptyState';
import { FieldFrame, useFieldWiring } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { Notice } from '../../ui/Notice';
import { PayoutDetailFields, usePayoutDetails } from '../../lib/payout-details-form';
import { PAYOUT_DETAIL_FIELDS } from '../../../core/payout-details';
import { SelectField } from '../../ui/SelectField';
import { useToast } from '../../ui/toast';
import { useSession } from '../../lib/session';
import { useCreateCashout, type NewPayoutMethod } from './api/cashouts';
import './cashout.css';

type FormValues = { cardId: string; amount: string; payoutMethod: string };
// `newMethod`: what the user typed for a method used the first time (saved before the cash-out);
// `payTo`: where the money goes, as the user recognises it, shown in the confirmation.
type Pending = { cardId: string; amountCents: number; payoutMethod: PayoutMethod; feeCents: number; netCents: number; key: string; newMethod: NewPayoutMethod | null; payTo: string | null };


export const PROCESSING_NOTE = 'Processing takes 1-3 business days.';

// What tells the cards apart first: a phone's select (375 px) shows about 26 characters.
const cardLabel = (card: Card) =>
  `•••• ${card.last4}: ${formatUsd(card.remainingAmountCents)} left${card.status === 'expired' ? ', expired' : ''} (${card.network === 'visa' ? 'Visa' : 'Mastercard'})`;

/** Which field a message of `validateCashout` belongs to. */
function fieldOf(message: string): keyof FormValues {
  if (message === CASHOUT_MESSAGES.selectCard || message === CASHOUT_MESSAGES.noBalance) return 'cardId';
  if (message === CASHOUT_MESSAGES.selectPayoutMethod || message.includes('payouts are not available')) return 'payoutMethod';
  return 'amount';
}

/**
 * The cash-out form of /cashout and of the My Cards modal: card, amount (clamped to the balance),
 * payout method (the plan's rule, docs/rules.md#payout-methods-by-plan), a live fee preview from the core, the confirm
 * modal, processing and the success modal. The server decides; this only previews.
 */
export function CashoutForm({ cards, initialCardId, onFinished, compact = false }: {
  cards: readonly Card[];
  initialCardId?: string | null;
  /** Called when the success modal is closed (the caller refreshes its cards). */
  onFinished?: () => void;
  compact?: boolean;
}) {
  const { profile } = useSession();
  const toast = useToast();
  const createCashout = useCreateCashout();
  const plan: PlanId = profile?.subscription ?? 'free';
  const promoActive = profile?.promoActive ?? false;
  const saved = useMemo(
    () => (profile?.payoutMethods ?? []).filter((m) => m.status === 'active').map((m) => m.method),
    [profile?.payoutMethods],
  );
  const choices = useMemo(() => cashoutMethodChoices(plan, saved), [plan, saved]);
  const savedEntry = (method: PayoutMethod) => profile?.payoutMethods.find((m) => m.method === method && m.status === 'active') ?? null;
  // Each saved method's details ("•••• 6789"), so the user sees where the money goes before it does.
  const savedDetail = (method: PayoutMethod) => savedEntry(method)?.detail ?? null;
  // Decision 172: the server refused a cash-out to this method because the payout provider has no
  // destination for it (its details are asked again); its message stays beside the fields.
  const [refused, setRefused] = useState<{ method: PayoutMethod; message: string } | null>(null);
  // A saved method without a destination (saved before decision 168, or without details) is paid
  // only once its details are entered again; the server's refusal says so when the profile did not.
  const savedWithoutDetails = (method: PayoutMethod) => saved.includes(method) && ((savedEntry(method)?.needsDetails ?? false) || refused?.method === method);
  const methodLabel = (method: PayoutMethod) => {
    const shown = [savedDetail(method), savedWithoutDetails(method) ? 'details needed' : null].filter(Boolean).join(', ');
    return shown ? `${PAYOUT_METHOD_LABELS[method]} (${shown})` : PAYOUT_METHOD_LABELS[method];
  };
  const preferred = profile?.preferredPayout ?? null;
  // No method is chosen for the user unless they saved one: money goes where they say.
  const defaultMethod = preferred && saved.includes(preferred) && choices.includes(preferred) ? preferred : '';
  const details = usePayoutDetails();

  // A card emptied by the cash-out stays in the list until the success modal is closed (docs/rules.md#card-figures).
  const [success, setSuccess] = useState<CreateCashoutResponse | null>(null);
  const shownCards = useMemo(
    () => cards.filter((card) => card.remainingAmountCents > 0 || card.id === success?.card.id),
    [cards, success],
  );
  const firstCard = shownCards.find((card) => card.id === initialCardId) ?? shownCards[0] ?? null;

  const resolver: Resolver<FormValues> = async (values) => {
    const card = shownCards.find((c) => c.id === values.cardId) ?? null;
    const remaining = card ? card.remainingAmountCents : null;
    // Each field is checked on its own (with valid stand-ins for the others), so a touched field
    // shows its own message even while an untouched one is still empty.
    const errors: FieldErrors<FormValues> = {};
    const add = (message: string) => {
      const field = fieldOf(message);
      if (!errors[field]) errors[field] = { type: 'validate', message };
    };
    const full = validateCashout({ plan, remainingCents: remaining, method: values.payoutMethod || null, amountInput: values.amount });
    if (full.ok) return { values, errors: {} };
    add(full.message);
    const methodCheck = validateCashout({ plan, remainingCents: Number.MAX_SAFE_INTEGER, method: values.payoutMethod || null, amountInput: '0.01' });
    if (!methodCheck.ok) add(methodCheck.message);
    if (remaining !== null && remaining > 0) {
      const amountCheck = validateCashout({ plan, remainingCents: remaining, method: choices[0] ?? null, amountInput: values.amount });
      if (!amountCheck.ok) add(amountCheck.message);
    }
    return { values: {}, errors };
  };

  const form = useForm<FormValues>({
    mode: 'onTouched',
    resolver,
    defaultValues: {
      cardId: firstCard?.id ?? '',
      // The user says how much; 'Whole balance' fills it in one tap.
      amount: '',
      payoutMethod: defaultMethod,
    },
  });
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
  useEffect(() => {
    if (!form.getValues('payoutMethod') && defaultMethod) form.setValue('payoutMethod', defaultMethod);
  }, [defaultMethod, form]);

  const parsed = parseMoneyInput(amountInput ?? '');
  const previewCents = parsed.ok && parsed.cents > 0 && selected && parsed.cents <= selected.remainingAmountCents ? parsed.cents : null;
  const preview = previewCents === null ? null : cashoutFee({ amountCents: previewCents, plan, promoActive });

  const [pending, setPending] = useState<Pending | null>(null);

  // Asked on first use (saved before the cash-out), and again for a saved method without a destination (decision 172).
  const needsDetail = isPayoutMethod(method) && (!saved.includes(method) || savedWithoutDetails(method) || refused?.method === method);

  const onSubmit = (values: FormValues) => {
    const amount = parseMoneyInput(values.amount);
    if (!amount.ok || !isPayoutMethod(values.payoutMethod)) return;
    let newMethod: NewPayoutMethod | null = null;
    let payTo = savedDetail(values.payoutMethod);
    if (needsDetail) {
      const checked = details.check(values.payoutMethod);
      if (!checked) return;
      newMethod = { method: values.payoutMethod, detail: checked.input.detail ?? '', ...(values.payoutMethod === 'ach' ? { routingNumber: checked.input.routingNumber } : {}) };
      payTo = checked.stored;
    } else {
      details.clearErrors();
    }
    const fee = cashoutFee({ amountCents: amount.cents, plan, promoActive });
    setPending({ cardId: values.cardId, amountCents: amount.cents, payoutMethod: values.payoutMethod, feeCents: fee.feeCents, netCents: fee.netCents, key: newIdempotencyKey(), newMethod, payTo });
  };

  // One confirmation at a time: a fast double click lands before `isPending` re-renders the
  // button as busy, and would save a new payout method twice (409).
  const confirm = useSingleFlight(async () => {
    if (!pending) return;
    const chosen = pending.payoutMethod;
    try {
      const answer = await createCashout.mutateAsync({
        cardId: pending.cardId,
        amountCents: pending.amountCents,
        payoutMethod: pending.payoutMethod,
        idempotencyKey: pending.key,
        newMethod: pending.newMethod ?? undefined,
      });
      setPending(null);
      setRefused(null);
      setSuccess(answer);
      toast.success(CASHOUT_SUCCESS_MESSAGE);
    } catch (error) {
      setPending(null);
      // Decision 172: nothing moved; the details are asked beside the method, for a retry.
      if (error instanceof ApiError && error.code === 'payout_method_needs_details') {
        setRefused({ method: chosen, message: error.message });
        return;
      }
      // A refusal the server explains (4xx, 501) is shown as is; anything else is the spec's.
      toast.error(
        error instanceof ApiError && error.status >= 400 && error.status < 500
          ? error.message
          : `${CASHOUT_FAILED_MESSAGE}. ${errorMessage(error, 'Please try again.')}`,
      );
    }
  });

  const closeSuccess = () => {
    setSuccess(null);
    // docs/rules.md#wizard-steps: cards with nothing left drop out and the first remaining card is selected.
    const remaining = cards.filter((card) => card.remainingAmountCents > 0);
    const next = remaining.find((card) => card.id === cardId) ?? remaining[0] ?? null;
    details.reset();
    form.reset({
      cardId: next?.id ?? '',
      amount: '',
      payoutMethod: form.getValues('payoutMethod') || defaultMethod,
    });
    onFinished?.();
  };

  const successModal = (
    <Modal
      open={success !== null}
      onOpenChange={(open) => (open ? undefined : closeSuccess())}
      title={CASHOUT_SUCCESS_MESSAGE}
      footer={<Button onClick={closeSuccess}>Done</Button>}
    >
      {success && (
        <div className="cashout-receipt">
          <dl className="cashout-summary">
            <div>
              <dt>Cash-out amount</dt>
              <dd>{formatUsd(success.cashout.amountCents)}</dd>
            </div>
            <div>
              <dt>Fee ({formatPpmAsPercent(success.feeRatePpm)})</dt>
              <dd>{formatUsd(success.cashout.feeCents)}</dd>
            </div>
            <div className="cashout-summary-total">
              <dt>You receive</dt>
              <dd>{formatUsd(success.cashout.netAmountCents)}</dd>
            </div>
            <div>
              <dt>Payout method</dt>
              <dd>{PAYOUT_METHOD_LABELS[success.cashout.payoutMethod]}</dd>
            </div>
            <div>
              <dt>Left on card •••• {success.cashout.cardLast4}</dt>
              <dd>{formatUsd(success.card.remainingAmountCents)}</dd>
            </div>
          </dl>
          <p className="text-muted">
            {PROCESSING_NOTE} {success.card.status === 'cashed_out' ? 'The card is now Cashed Out.' : ''}
          </p>
        </div>
      )}
    </Modal>
  );

  if (shownCards.length === 0) {
    return (
      <>
        <EmptyState
          icon="card"
          title="No cards to cash out"
          headingLevel={compact ? 3 : 2}
          actions={
            <>
              <ButtonLink to="/my-cards" variant="secondary">
                Go to My Cards
              </ButtonLink>
              <ButtonLink to="/create-card">Create a Card</ButtonLink>
            </>
          }
        >
          Only cards with a balance that are not frozen can be cashed out.
        </EmptyState>
        {successModal}
      </>
    );
  }

  const PreviewHeading = compact ? 'h3' : 'h2';
  const upgradeMethods = PLANS['premium+'].payoutMethods.filter((m) => !PLANS[plan].payoutMethods.includes(m));

  return (
    <FormProvider {...form}>
      <form className="form cashout-form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <SelectField
          name="cardId"
          label="Card"
          required
          placeholder="Select a card"
          options={shownCards.map((card) => ({ value: card.id, label: cardLabel(card) }))}
        />
        <AmountField max={selected?.remainingAmountCents ?? null} />
        {selected && (
          <div className="cashout-whole">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => form.setValue('amount', centsToInputString(selected.remainingAmountCents), { shouldValidate: true, shouldTouch: true })}
            >
              Whole balance ({formatUsd(selected.remainingAmountCents)})
            </Button>
          </div>
        )}
        <SelectField
          name="payoutMethod"
          label="Payout method"
          required
          placeholder="Select a payout method"
          options={choices.map((m) => ({ value: m, label: methodLabel(m) }))}
          hint={
            upgradeMethods.length > 0 ? (
              <>
                {PLANS[plan].name} plan: {payoutMethodList(choices, 'and')}.{' '}
                <Link to="/upgrade">Upgrade</Link> for {payoutMethodList(upgradeMethods, 'and')}.
              </>
            ) : undefined
          }
        />

        {refused && refused.method === method && (
          <Notice tone="warning" role="alert">
            {refused.message} <Link to="/settings?tab=payout-methods">Go to Payout Methods</Link>
          </Notice>
        )}
        {needsDetail && isPayoutMethod(method) && (
          <PayoutDetailFields
            method={method}
            details={details}
            ids={{ routingNumber: 'payout-routing-number', detail: `payout-detail-${method}` }}
            detailHint={
              saved.includes(method)
                ? `We need your ${PAYOUT_METHOD_LABELS[method]} details again before we can pay to it. ${PAYOUT_DETAIL_FIELDS[method].hint} They are saved with the method.`
                : `First cash-out to ${PAYOUT_METHOD_LABELS[method]}: ${PAYOUT_DETAIL_FIELDS[method].hint} It is saved as a payout method.`
            }
          />
        )}

        <section className="cashout-preview" aria-labelledby="cashout-preview-title" aria-live="polite">
          {/* h2 under the page's h1; h3 under the modal's h2 (heading order, axe). */}
          <PreviewHeading id="cashout-preview-title" className="cashout-preview-title">
            Fee preview
          </PreviewHeading>
          {preview && previewCents !== null ? (
            <dl className="cashout-summary">
              <div>
                <dt>Cash-out amount</dt>
                <dd data-testid="cashout-amount">{formatUsd(previewCents)}</dd>
              </div>
              <div>
                <dt>
                  Fee ({formatPpmAsPercent(preview.ratePpm)}
                  {promoActive ? ', launch promo' : ''})
                </dt>
                <dd data-testid="cashout-fee">{formatUsd(preview.feeCents)}</dd>
              </div>
              <div className="cashout-summary-total">
                <dt>You receive</dt>
                <dd data-testid="cashout-net">{formatUsd(preview.netCents)}</dd>
              </div>
            </dl>
          ) : (
            <p className="text-muted">Enter an amount to see the fee and what you receive.</p>
          )}
          {method && isPayoutMethod(method) && <p className="text-small text-muted">{PROCESSING_NOTE}</p>}
        </section>

        <div className="button-row">
          <Button type="submit" loading={createCashout.isPending}>
            Cash Out
          </Button>
        </div>
        {!compact && (
          <Notice tone="info">Demo mode: no real money moves. In a live account the payout reaches you in 1-3 business days.</Notice>
        )}
      </form>

      <ConfirmModal
        open={pending !== null}
        onOpenChange={(open) => (open || createCashout.isPending ? undefined : setPending(null))}
        title="Confirm cash-out"
        confirmLabel="Confirm Cash Out"
        busy={createCashout.isPending}
        onConfirm={confirm}
      >
        {pending && (
          <>
            <p>
              Cash out {formatUsd(pending.amountCents)} from card <span className="text-nowrap">•••• {shownCards.find((c) => c.id === pending.cardId)?.last4}</span> to{' '}
              {PAYOUT_METHOD_LABELS[pending.payoutMethod]}
              {pending.payTo ? (
                <>
                  {' ('}
                  <span className="text-nowrap">{pending.payTo}</span>)
                </>
              ) : null}
              ? The fee is {formatUsd(pending.feeCents)}; you receive {formatUsd(pending.netCents)}.
            </p>
            <p>{PROCESSING_NOTE}</p>
          </>
        )}
      </ConfirmModal>
      {successModal}
    </FormProvider>
  );
}

/**
 * The amount in dollars, clamped to the card's balance as it is typed (docs/rules.md#amount-step), and saying so
 * beside the field when it happens (a silent change of a money amount is not trusted).
 */
function AmountField({ max }: { max: number | null }) {
  const [clampedTo, setClampedTo] = useState<number | null>(null);
  const hint = max !== null ? `Up to ${formatUsd(max)}` : undefined;
  const wiring = useFieldWiring({ name: 'amount', required: true, hint });
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const parsed = parseMoneyInput(event.target.value);
    if (max !== null && parsed.ok && parsed.cents > max) {
      event.target.value = centsToInputString(max);
      setClampedTo(max);
    } else {
      setClampedTo(null);
    }
    return wiring.controlProps.onChange(event);
  };
  return (
    <FieldFrame wiring={wiring} label="Amount" required hint={hint}>
      <div className="field-affix">
        <span className="field-prefix" aria-hidden="true">
          $
        </span>
        <input
          {...wiring.controlProps}
          onChange={onChange}
          type="number"
          inputMode="decimal"
          min="0.01"
          step="0.01"
          max={max !== null ? centsToInputString(max) : undefined}
          className="field-input"
        />
      </div>
      {clampedTo !== null && (
        <p className="field-note" role="status">
          Set to the card&apos;s balance, {formatUsd(clampedTo)}: you cannot cash out more than is on the card.
        </p>
      )}
    </FieldFrame>
  );
}

