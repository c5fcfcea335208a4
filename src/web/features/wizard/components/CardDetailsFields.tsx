import { groupCardNumber } from '../../../../core/cards';
import { useWizardControl } from '../use-wizard-control';
import { ExpirySelects } from './ExpirySelects';
import { WizardField } from './WizardField';

/** "0428" → "04/28" as the user types; a typed slash is kept. */
export function formatExpiryInput(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  if (digits.length <= 2) return value.includes('/') && digits.length === 2 ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

type Props = {
  /**
   * A source card's expiry is asked as a month and a year ('expiryMonth', 'expiryYear'); a BNPL
   * one-time card's as MM/YY, as its provider prints it ('expiry'). Either way its error is 'expiry'.
   */
  expiry: 'month-year' | 'mm-yy';
  /** Called after every edit of these fields. */
  onEdit?: () => void;
  /** The number as grouped after an edit, e.g. to pick the provider it names. */
  onCardNumber?: (grouped: string) => void;
};

/** Card number, expiry and CVV of the form in context (fields 'cardNumber', 'expiry…', 'cvv'), each with its error. */
export function CardDetailsFields({ expiry, onEdit, onCardNumber }: Props) {
  const number = useWizardControl('cardNumber', { onEdit });
  const cvv = useWizardControl('cvv', { onEdit });
  const monthYear = expiry === 'month-year';
  return (
    <>
      <WizardField label="Card number" required error={number.error}>
        {(control) => (
          <input
            {...control}
            ref={number.ref}
            className="field-input field-mono"
            type="text"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 5678 9012 3456"
            maxLength={23}
            value={number.value}
            onBlur={number.onBlur}
            onChange={(e) => {
              const grouped = groupCardNumber(e.target.value);
              number.set(grouped);
              onCardNumber?.(grouped);
            }}
          />
        )}
      </WizardField>
      <div className={monthYear ? 'form-row source-form-card-row' : 'form-row'}>
        {monthYear ? <ExpirySelects onEdit={onEdit} /> : <ExpiryInput onEdit={onEdit} />}
        <WizardField label="CVV" required error={cvv.error} className={monthYear ? 'cvv-field' : undefined}>
          {(control) => (
            <input
              {...control}
              ref={cvv.ref}
              className="field-input field-mono"
              type="password"
              inputMode="numeric"
              autoComplete="cc-csc"
              maxLength={4}
              value={cvv.value}
              onBlur={cvv.onBlur}
              onChange={(e) => cvv.set(e.target.value.replace(/\D/g, ''))}
            />
          )}
        </WizardField>
      </div>
    </>
  );
}

function ExpiryInput({ onEdit }: { onEdit?: () => void }) {
  const expiry = useWizardControl('expiry', { onEdit });
  return (
    <WizardField label="Expiry (MM/YY)" required error={expiry.error}>
      {(control) => (
        <input
          {...control}
          ref={expiry.ref}
          className="field-input field-mono"
          type="text"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          maxLength={5}
          value={expiry.value}
          onBlur={expiry.onBlur}
          onChange={(e) => expiry.set(formatExpiryInput(e.target.value))}
        />
      )}
    </WizardField>
  );
}
