import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { CARD_MESSAGES, DECLINE_TEST_CARD, detectBrand, expiryYearOptions, groupCardNumber, providerBrandProblem, validateSourceForm } from '../../../../core/cards';
import {
  bnplSourceFees,
  cardSourceFees,
  internalSourceFees,
  isProviderAllowed,
  isSourceType,
  PROVIDER_LABELS,
  PROVIDERS_BY_SOURCE_TYPE,
  SOURCE_TYPE_LABELS,
  SOURCE_TYPES,
} from '../../../../core/fees';
import type { SourceKind, SourceType } from '../../../../core/fees';
import { centsToInputString, formatUsd, MESSAGES, parseMoneyInput } from '../../../../core/money';
import type { AddSourceRequest, Combine } from '../../../../contracts/combines';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { useToast } from '../../../ui/toast';
import { usePublicConfig } from '../../../lib/public-config';
import type { ActiveCard } from '../api';
import { DEMO_TEST_CARDS, INTERNAL_SOURCE_LABEL, declineMessage, networkLabel } from '../labels';
import type { AddSourceOutcome, SourcePrefill } from '../use-wizard';
import { WizardField } from './WizardField';

type FormType = SourceType | 'internal' | '';
type FieldName = 'type' | 'provider' | 'sourceCardId' | 'amount' | 'cardNumber' | 'expiry' | 'cvv';

type FormState = {
  type: FormType;
  provider: string;
  sourceCardId: string;
  amount: string;
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
};

const EMPTY_FORM: FormState = { type: '', provider: '', sourceCardId: '', amount: '', cardNumber: '', expiryMonth: '', expiryYear: '', cvv: '' };

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

// Which field a validation message belongs to, so the field is marked as well as the toast raised.
const FIELD_OF_MESSAGE: Record<string, FieldName> = {
  [CARD_MESSAGES.selectType]: 'type',
  [CARD_MESSAGES.selectProvider]: 'provider',
  [CARD_MESSAGES.invalidAmount]: 'amount',
  [MESSAGES.tooManyDecimals]: 'amount',
  [CARD_MESSAGES.invalidCardNumber]: 'cardNumber',
  [CARD_MESSAGES.invalidExpiry]: 'expiry',
  [CARD_MESSAGES.invalidCvv]: 'cvv',
};

export const CHOOSE_CARD_MESSAGE = 'Please choose one of your cards';

function kindOf(type: FormType): SourceKind {
  if (type === 'bnpl') return 'bnpl';
  if (type === 'internal') return 'internal';
  return 'card';
}

function initialForm(prefill: SourcePrefill | null, combine: Combine): FormState {
  if (!prefill) return EMPTY_FORM;
  // What the new card still needs, at most the card's balance: the whole balance of a card that
  // holds more than needed would move the extra to the new card too.
  const neededCents = combine.funding.remainingToFundCents > 0 ? combine.funding.suggestedChargeCents.internal : null;
  const amountCents = prefill.amountCents === null ? neededCents : neededCents === null ? prefill.amountCents : Math.min(prefill.amountCents, neededCents);
  return {
    ...EMPTY_FORM,
    type: 'internal',
    sourceCardId: prefill.sourceCardId,
    amount: amountCents !== null ? centsToInputString(amountCents) : '',
  };
}

type Props = {
  combine: Combine;
  activeCards: ActiveCard[];
  prefill: SourcePrefill | null;
  onPrefillUsed: () => void;
  onAdd: (source: AddSourceRequest) => Promise<AddSourceOutcome>;
  adding: boolean;
  onAdded: () => void;
};

/** Step 2's add-source form (docs/rules.md#source-validation): every failed check is a toast with the spec's words. */
export function SourceForm({ combine, activeCards, prefill, onPrefillUsed, onAdd, adding, onAdded }: Props) {
  const toast = useToast();
  const [form, setForm] = useState<FormState>(() => initialForm(prefill, combine));
  const [error, setError] = useState<{ field: FieldName; message: string } | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const { demoMode } = usePublicConfig();
  const years = useMemo(() => expiryYearOptions(new Date()), []);

  const remainingCents = combine.funding.remainingToFundCents;
  const fullyFunded = remainingCents === 0 && combine.sources.length > 0;
  const kind = kindOf(form.type);
  const isCard = form.type !== '' && form.type !== 'bnpl' && form.type !== 'internal';

  // The card a 'Use as Source' link named is offered even when the card list is not available.
  const cardChoices = useMemo(() => {
    const list = [...activeCards];
    if (prefill && !list.some((c) => c.id === prefill.sourceCardId)) {
      list.push({ id: prefill.sourceCardId, last4: '', network: '', status: 'active', frozen: false, remainingAmountCents: prefill.amountCents ?? 0 });
    }
    return list;
  }, [activeCards, prefill]);
  const chosenCard = cardChoices.find((c) => c.id === form.sourceCardId) ?? null;

  const update = (patch: Partial<FormState>, field?: FieldName) => {
    setForm((current) => ({ ...current, ...patch }));
    if (field && error?.field === field) setError(null);
    if (declined) setDeclined(null);
  };

  const onTypeChange = (type: FormType) => {
    // A provider only makes sense for its type; the number already typed may name the brand.
    const brand = detectBrand(form.cardNumber);
    const provider = type !== '' && type !== 'internal' && brand && isProviderAllowed(type, brand) ? brand : '';
    update({ type, provider, sourceCardId: type === 'internal' ? (cardChoices[0]?.id ?? '') : '' }, 'type');
  };

  const onCardNumberChange = (value: string) => {
    const grouped = groupCardNumber(value);
    const brand = detectBrand(grouped);
    const patch: Partial<FormState> = { cardNumber: grouped };
    if (form.provider === '' && brand && isSourceType(form.type) && isProviderAllowed(form.type, brand)) patch.provider = brand;
    update(patch, 'cardNumber');
  };

  const suggestedCents = (() => {
    const suggested = combine.funding.suggestedChargeCents[kind];
    if (kind === 'internal' && chosenCard) return Math.min(suggested, chosenCard.remainingAmountCents);
    return suggested;
  })();

  const fillExactAmount = () => update({ amount: centsToInputString(suggestedCents) }, 'amount');

  // What the typed amount would bring, at the user's current rate (the review shows the final quote).
  const preview = (() => {
    const parsed = parseMoneyInput(form.amount);
    if (!parsed.ok || parsed.cents <= 0 || form.type === '') return null;
    const ppm = combine.funding.productFeePpm;
    if (kind === 'bnpl') {
      const fees = bnplSourceFees(parsed.cents, form.provider || 'other', ppm);
      return { ...fees, bnpl: true };
    }
    const fees = kind === 'internal' ? internalSourceFees(parsed.cents, ppm) : cardSourceFees(parsed.cents, ppm);
    return { ...fees, bnplFeeMaxCents: 0, bnplFeeActualCents: 0, rebateCents: 0, oneTimeCardChargeCents: 0, bnpl: false };
  })();

  const fail = (message: string, field: FieldName) => {
    setError({ field, message });
    toast.error(message);
  };

  // One submit at a time: each pre-authorises a card, and a fast double click lands before
  // `adding` re-renders the button as busy.
  const submitOnce = useSingleFlight(() => submit());
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (fullyFunded || adding) return;
    await submitOnce();
  };

  const submit = async () => {
    let request: AddSourceRequest;
    if (form.type === 'internal') {
      if (!chosenCard) return fail(CHOOSE_CARD_MESSAGE, 'sourceCardId');
      const parsed = parseMoneyInput(form.amount);
      if (!parsed.ok || parsed.cents <= 0) {
        return fail(parsed.ok || parsed.reason !== 'too_many_decimals' ? CARD_MESSAGES.invalidAmount : MESSAGES.tooManyDecimals, 'amount');
      }
      if (chosenCard.last4 !== '' && parsed.cents > chosenCard.remainingAmountCents) {
        return fail(`Amount cannot exceed remaining balance (${formatUsd(chosenCard.remainingAmountCents)})`, 'amount');
      }
      request = { type: 'internal', sourceCardId: chosenCard.id, chargeCents: parsed.cents };
    } else {
      const result = validateSourceForm(
        {
          type: form.type,
          provider: form.provider,
          amountInput: form.amount,
          cardNumber: form.cardNumber,
          expiryMonth: form.expiryMonth,
          expiryYear: form.expiryYear,
          cvv: form.cvv,
        },
        new Date(),
      );
      if (!result.ok) {
        // The provider/number mismatch names both networks, so it has no fixed text to look up.
        const mismatch = result.message === providerBrandProblem(form.provider, form.cardNumber);
        return fail(result.message, FIELD_OF_MESSAGE[result.message] ?? (mismatch ? 'provider' : 'amount'));
      }
      request = result.card
        ? {
            type: result.type,
            provider: result.provider,
            chargeCents: result.chargeCents,
            cardNumber: result.card.number,
            expMonth: result.card.expiryMonth,
            expYear: result.card.expiryYear,
            cvv: result.card.cvv,
          }
        : { type: 'bnpl', provider: result.provider, chargeCents: result.chargeCents };
    }
    setError(null);
    setDeclined(null);
    const outcome = await onAdd(request);
    if (outcome.ok) {
      // The card number and CVV leave the browser's memory as soon as the server has them.
      setForm(EMPTY_FORM);
      if (prefill) onPrefillUsed();
      onAdded();
    } else if (outcome.declined) {
      // Everything typed stays, so Try again is one click; the message says what happened.
      setDeclined(isCard ? declineMessage({ serverMessage: outcome.message, cardNumber: form.cardNumber, demoMode, declineTestNumber: DECLINE_TEST_CARD }) : outcome.message);
    }
  };

  const errorFor = (field: FieldName) => (error?.field === field ? error.message : null);
  const typeOptions: { value: FormType; label: string }[] = [
    ...SOURCE_TYPES.map((type) => ({ value: type, label: SOURCE_TYPE_LABELS[type] })),
    ...(cardChoices.length > 0 ? [{ value: 'internal' as const, label: INTERNAL_SOURCE_LABEL }] : []),
  ];

  return (
    <form className="form source-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="add-source-heading">
      <h3 id="add-source-heading" className="wizard-subheading">
        Add a payment source
      </h3>
      {fullyFunded && (
        <Notice tone="success">Your card total is fully funded. Remove a source if you want to change the mix.</Notice>
      )}
      {/* Locked while a card is being authorized: what was typed meanwhile would be cleared with the form once it is added. */}
      <fieldset className="source-form-fields" disabled={fullyFunded || adding}>
        <legend className="visually-hidden">Payment source details</legend>
        {/* A PayWeave card is named with its balance: too long for half a row, so it gets a row of its own. */}
        <div className={form.type === 'internal' ? 'form-row source-form-row--stacked' : 'form-row'}>
          <WizardField label="Source type" required error={errorFor('type')}>
            {(control) => (
              <select {...control} className="field-input field-select" value={form.type} onChange={(e) => onTypeChange(e.target.value as FormType)}>
                <option value="">Select a type</option>
                {typeOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </WizardField>
          {form.type === 'internal' ? (
            <WizardField label="Card" required error={errorFor('sourceCardId')}>
              {(control) => (
                <select {...control} className="field-input field-select" value={form.sourceCardId} onChange={(e) => update({ sourceCardId: e.target.value }, 'sourceCardId')}>
                  <option value="">Select one of your cards</option>
                  {cardChoices.map((card) => (
                    <option key={card.id} value={card.id}>
                      {card.last4
                        ? `${networkLabel(card.network)} •••• ${card.last4} (${formatUsd(card.remainingAmountCents)} available)`
                        : 'Your PayWeave card'}
                    </option>
                  ))}
                </select>
              )}
            </WizardField>
          ) : (
            <WizardField label="Provider" required error={errorFor('provider')}>
              {(control) => (
                <select
                  {...control}
                  className="field-input field-select"
                  value={form.provider}
                  disabled={form.type === ''}
                  onChange={(e) => update({ provider: e.target.value }, 'provider')}
                >
                  <option value="">{form.type === '' ? 'Choose a type first' : 'Select a provider'}</option>
                  {(isSourceType(form.type) ? PROVIDERS_BY_SOURCE_TYPE[form.type] : []).map((provider) => (
                    <option key={provider} value={provider}>
                      {PROVIDER_LABELS[provider]}
                    </option>
                  ))}
                </select>
              )}
            </WizardField>
          )}
        </div>

        <WizardField
          label="Amount to charge"
          required
          prefix="$"
          error={errorFor('amount')}
          hint={form.type === 'bnpl' ? 'What the BNPL plan pays. Its one-time card will be 10% larger to cover the provider’s fee.' : undefined}
        >
          {(control) => (
            <input
              {...control}
              className="field-input"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={form.amount}
              onChange={(e) => update({ amount: e.target.value }, 'amount')}
            />
          )}
        </WizardField>
        {remainingCents > 0 && (
          <div className="exact-amount">
            <Button variant="secondary" size="sm" onClick={fillExactAmount} disabled={suggestedCents <= 0}>
              <Icon name="zap" size={16} />
              Charge the exact amount still needed
            </Button>
            <p className="text-small text-muted">
              {formatUsd(remainingCents)} still needed after fees: charge{' '}
              <strong>{formatUsd(suggestedCents)}</strong>
              {form.type === '' ? ' from a card' : ''}.
            </p>
          </div>
        )}

        {isCard && (
          <>
            <WizardField label="Card number" required error={errorFor('cardNumber')}>
              {(control) => (
                <input
                  {...control}
                  className="field-input field-mono"
                  type="text"
                  inputMode="numeric"
                  autoComplete="cc-number"
                  placeholder="1234 5678 9012 3456"
                  maxLength={23}
                  value={form.cardNumber}
                  onChange={(e) => onCardNumberChange(e.target.value)}
                />
              )}
            </WizardField>
            <div className="form-row source-form-card-row">
              <fieldset className="expiry-fieldset" aria-describedby={errorFor('expiry') ? 'expiry-error' : undefined}>
                <legend className="field-label">
                  Expiry date<span className="field-required" aria-hidden="true"> *</span>
                </legend>
                <div className="expiry-selects">
                  <label className="visually-hidden" htmlFor="source-exp-month">
                    Expiry month
                  </label>
                  <select
                    id="source-exp-month"
                    className="field-input field-select"
                    required
                    aria-invalid={errorFor('expiry') ? true : undefined}
                    value={form.expiryMonth}
                    autoComplete="cc-exp-month"
                    onChange={(e) => update({ expiryMonth: e.target.value }, 'expiry')}
                  >
                    <option value="">Month</option>
                    {MONTHS.map((month) => (
                      <option key={month} value={month}>
                        {month}
                      </option>
                    ))}
                  </select>
                  <label className="visually-hidden" htmlFor="source-exp-year">
                    Expiry year
                  </label>
                  <select
                    id="source-exp-year"
                    className="field-input field-select"
                    required
                    aria-invalid={errorFor('expiry') ? true : undefined}
                    value={form.expiryYear}
                    autoComplete="cc-exp-year"
                    onChange={(e) => update({ expiryYear: e.target.value }, 'expiry')}
                  >
                    <option value="">Year</option>
                    {years.map((year) => (
                      <option key={year} value={String(year)}>
                        {year}
                      </option>
                    ))}
                  </select>
                </div>
                {errorFor('expiry') && (
                  <p id="expiry-error" className="field-error">
                    {errorFor('expiry')}
                  </p>
                )}
              </fieldset>
              <WizardField label="CVV" required error={errorFor('cvv')} className="cvv-field">
                {(control) => (
                  <input
                    {...control}
                    className="field-input field-mono"
                    type="password"
                    inputMode="numeric"
                    autoComplete="cc-csc"
                    maxLength={4}
                    value={form.cvv}
                    onChange={(e) => update({ cvv: e.target.value.replace(/\D/g, '') }, 'cvv')}
                  />
                )}
              </WizardField>
            </div>
          </>
        )}

        {isCard && demoMode && <DemoTestCards onUse={(number) => onCardNumberChange(number)} />}

        {preview && (
          <div className="source-preview" aria-live="polite">
            {preview.netCents > 0 ? (
              <p>
                Reaches your card: <strong>{formatUsd(preview.netCents)}</strong>
                <span className="text-muted">
                  {' '}
                  after {formatUsd(preview.processorFeeCents)} processor fee and {formatUsd(preview.productFeeCents)} product fee
                  {preview.bnpl
                    ? `; the one-time card is ${formatUsd(preview.oneTimeCardChargeCents)} (BNPL fee up to ${formatUsd(preview.bnplFeeMaxCents)}, ${formatUsd(preview.rebateCents)} expected back)`
                    : ''}
                  .
                </span>
              </p>
            ) : (
              <p className="text-muted">This amount is too small to cover its fees.</p>
            )}
          </div>
        )}

        {declined && (
          <Notice tone="error" role="alert" title="Card declined" className="source-declined">
            <p>{declined}</p>
            <Button type="submit" variant="secondary" size="sm" loading={adding} loadingText="Authorizing...">
              <Icon name="refresh" size={16} />
              Try again
            </Button>
          </Notice>
        )}

        <div className="form-actions">
          <Button type="submit" variant="accent" loading={adding} loadingText={isCard ? 'Authorizing...' : 'Processing...'} disabled={fullyFunded}>
            <Icon name="layers" size={18} />
            Add Source
          </Button>
          {isCard && (
            <p className="text-small text-muted source-form-secure">
              <Icon name="lock" size={16} />
              Your card is pre-authorized now and charged only when you create the card. We keep only its last 4 digits.
            </p>
          )}
        </div>
      </fieldset>
    </form>
  );
}

/** Demo mode: the made-up numbers that work here, as payment test modes list them. */
function DemoTestCards({ onUse }: { onUse: (number: string) => void }) {
  return (
    <section className="demo-test-cards" aria-labelledby="demo-test-cards-heading">
      <h4 id="demo-test-cards-heading" className="demo-test-cards-title">
        <Icon name="info" size={16} />
        Demo mode: test numbers to try
      </h4>
      <p className="text-small text-muted">
        Made-up numbers are expected here; nothing is charged. Use any future expiry date and any 3 digits as CVV. About 1 in 10 pre-authorizations is declined at
        random, as real issuers sometimes do.
      </p>
      <ul className="demo-test-cards-list">
        {DEMO_TEST_CARDS.map((card) => (
          <li key={card.number}>
            <button type="button" className="link-button field-mono" onClick={() => onUse(card.number)} aria-label={`Use ${card.label} test number ${card.number}, ${card.outcome}`}>
              {card.number}
            </button>
            <span className="text-small text-muted">
              {card.label}, {card.outcome}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
