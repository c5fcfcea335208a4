import { useState } from 'react';
import type { FormEvent } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { CARD_MESSAGES, groupCardNumber, normaliseCardNumber, validateBnplCardEntry } from '../../../../core/cards';
import { formatUsd } from '../../../../core/money';
import type { CombineSource } from '../../../../contracts/combines';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { useToast } from '../../../ui/toast';
import { brandLabel, providerLabel } from '../labels';
import type { Wizard } from '../use-wizard';
import { WizardActions } from './WizardActions';
import { WizardField } from './WizardField';

type Field = 'cardNumber' | 'expiry' | 'cvv';
const FIELD_OF_MESSAGE: Record<string, Field> = {
  [CARD_MESSAGES.bnplInvalidCardNumber]: 'cardNumber',
  [CARD_MESSAGES.bnplInvalidExpiry]: 'expiry',
  [CARD_MESSAGES.bnplExpired]: 'expiry',
  [CARD_MESSAGES.bnplInvalidCvv]: 'cvv',
};

/** "0428" → "04/28" as the user types; a typed slash is kept. */
export function formatExpiryInput(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  if (digits.length <= 2) return value.includes('/') && digits.length === 2 ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** Step 4 with BNPL: the one-time card from the provider (docs/rules.md#wizard-steps, docs/rules.md#bnpl-steps), one per BNPL source. */
export function BnplCheckoutStep({ wizard }: { wizard: Wizard }) {
  const { combine, actions, pending } = wizard;
  const bnplSources = combine?.sources.filter((s) => s.type === 'bnpl') ?? [];
  const next = bnplSources.find((s) => !s.bnplCardLast4) ?? null;
  const done = bnplSources.filter((s) => s.bnplCardLast4);

  return (
    <div className="wizard-step-body">
      <p className="wizard-lead">
        Enter the one-time card your BNPL provider created. We pre-authorize it now and charge it only when you create your
        virtual card.
      </p>
      {done.map((source) => (
        <Notice key={source.id} tone="success">
          {providerLabel(source.provider)} one-time card {brandLabel(source.bnplCardBrand) ?? ''} •••• {source.bnplCardLast4} added.
        </Notice>
      ))}
      {next && <BnplCardForm key={next.id} source={next} onSubmit={actions.submitBnplCard} submitting={pending.bnplCard} />}
      <WizardActions onBack={actions.back}>
        <Button variant="secondary" onClick={() => void actions.saveForLater()} loading={pending.save}>
          Save for Later
        </Button>
        <Button type="submit" form="bnpl-card-form" loading={pending.bnplCard} disabled={!next || pending.save}>
          Continue to review
          <Icon name="arrowRight" size={18} />
        </Button>
      </WizardActions>
    </div>
  );
}

type FormProps = {
  source: CombineSource;
  submitting: boolean;
  onSubmit: (sourceId: string, card: { cardNumber: string; expiry: string; cvv: string }) => Promise<boolean>;
};

function BnplCardForm({ source, submitting, onSubmit }: FormProps) {
  const toast = useToast();
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const provider = providerLabel(source.provider);
  const oneTime = source.oneTimeCardChargeCents ?? source.chargeCents + source.bnplFeeMaxCents;

  const clear = (field: Field) => {
    if (error?.field === field) setError(null);
  };

  // One submit at a time: each pre-authorises the one-time card, and a fast double click lands
  // before `submitting` re-renders the button as busy.
  const submitOnce = useSingleFlight(() => submit());
  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    void submitOnce();
  };

  const submit = async () => {
    const entry = validateBnplCardEntry({ cardNumber, expiry, cvv }, new Date());
    if (!entry.ok) {
      setError({ field: FIELD_OF_MESSAGE[entry.message] ?? 'cardNumber', message: entry.message });
      toast.error(entry.message);
      return;
    }
    setError(null);
    // Spaces are removed before the number leaves the browser (docs/rules.md#messages).
    const ok = await onSubmit(source.id, { cardNumber: normaliseCardNumber(cardNumber), expiry: expiry.trim(), cvv: cvv.trim() });
    if (ok) {
      setCardNumber('');
      setExpiry('');
    }
    setCvv('');
  };

  const errorFor = (field: Field) => (error?.field === field ? error.message : null);

  return (
    <form id="bnpl-card-form" className="card form bnpl-card-form" noValidate onSubmit={onFormSubmit} aria-labelledby="bnpl-card-heading">
      <h3 id="bnpl-card-heading" className="wizard-subheading">
        {provider} one-time card for {formatUsd(oneTime)}
      </h3>
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
            value={cardNumber}
            onChange={(e) => {
              setCardNumber(groupCardNumber(e.target.value));
              clear('cardNumber');
            }}
          />
        )}
      </WizardField>
      <div className="form-row">
        <WizardField label="Expiry (MM/YY)" required error={errorFor('expiry')}>
          {(control) => (
            <input
              {...control}
              className="field-input field-mono"
              type="text"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              maxLength={5}
              value={expiry}
              onChange={(e) => {
                setExpiry(formatExpiryInput(e.target.value));
                clear('expiry');
              }}
            />
          )}
        </WizardField>
        <WizardField label="CVV" required error={errorFor('cvv')}>
          {(control) => (
            <input
              {...control}
              className="field-input field-mono"
              type="password"
              inputMode="numeric"
              autoComplete="cc-csc"
              maxLength={4}
              value={cvv}
              onChange={(e) => {
                setCvv(e.target.value.replace(/\D/g, ''));
                clear('cvv');
              }}
            />
          )}
        </WizardField>
      </div>
      <p className="text-small text-muted source-form-secure">
        <Icon name="lock" size={16} />
        We keep only the last 4 digits of this card.
      </p>
    </form>
  );
}
