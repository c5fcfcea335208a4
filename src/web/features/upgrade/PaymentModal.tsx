import { groupCardNumber } from '../../../core/cards';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PLANS } from '../../../core/plans';
import { PAYMENT_CARD_NUMBER_MAX_CHARS, paymentCardYears, type UpgradeResponse } from '../../../contracts/subscription';
import { Button } from '../../ui/Button';
import { Form } from '../../ui/Form';
import { Modal } from '../../ui/Modal';
import { Notice } from '../../ui/Notice';
import { SelectField } from '../../ui/SelectField';
import { TextField } from '../../ui/TextField';
import { useUpgrade } from './api/plans';
import { FormattedField } from './FormattedField';
import { usePaymentForm, type PaymentChoice } from './use-payment-form';

export type { PaymentChoice } from './use-payment-form';

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/**
 * The upgrade's payment form (docs/rules.md#upgrades): name, number grouped in fours (at most 19 characters),
 * MM, year (this year to +10), CVV (digits, at most 4), ZIP (digits, at most 5). Demo mode needs
 * the first five. The card goes to the server once and is never kept.
 */
export function PaymentModal({ choice, onClose, onPaid }: { choice: PaymentChoice | null; onClose: () => void; onPaid: (answer: UpgradeResponse) => void }) {
  const upgrade = useUpgrade();
  return (
    <Modal
      open={choice !== null}
      onOpenChange={(open) => (open || upgrade.isPending ? undefined : onClose())}
      dismissible={!upgrade.isPending}
      title={choice ? `Upgrade to ${PLANS[choice.plan].name}` : 'Upgrade'}
      size="md"
    >
      {choice && <PaymentForm choice={choice} upgrade={upgrade} onCancel={onClose} onPaid={onPaid} />}
    </Modal>
  );
}

function PaymentForm({ choice, upgrade, onCancel, onPaid }: { choice: PaymentChoice; upgrade: ReturnType<typeof useUpgrade>; onCancel: () => void; onPaid: (answer: UpgradeResponse) => void }) {
  const { form, submit, now, demoMode } = usePaymentForm({ choice, upgrade, onPaid });

  const plan = PLANS[choice.plan];
  return (
    <Form form={form} onSubmit={submit} aria-label="Payment details">
      <dl className="upgrade-due">
        <div>
          <dt>
            {plan.name}, {choice.cycle === 'monthly' ? 'monthly' : 'yearly'}
          </dt>
          <dd>{formatUsd(choice.listPriceCents)}</dd>
        </div>
        {choice.discountPpm > 0 && (
          <div>
            <dt>Loyalty discount ({formatPpmAsPercent(choice.discountPpm)})</dt>
            <dd>-{formatUsd(choice.listPriceCents - choice.amountCents)}</dd>
          </div>
        )}
        <div className="upgrade-due-total">
          <dt>Due today</dt>
          <dd data-testid="upgrade-due">{formatUsd(choice.amountCents)}</dd>
        </div>
      </dl>
      <TextField name="name" label="Name on card" required autoComplete="cc-name" />
      <FormattedField
        name="number"
        label="Card number"
        required
        format={(value) => groupCardNumber(value).slice(0, PAYMENT_CARD_NUMBER_MAX_CHARS)}
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={PAYMENT_CARD_NUMBER_MAX_CHARS}
        placeholder="1234 5678 9012 3456"
      />
      <div className="form-row upgrade-expiry">
        <SelectField name="expMonth" label="Expiry month" required placeholder="MM" options={MONTHS.map((m) => ({ value: m, label: m }))} autoComplete="cc-exp-month" />
        <SelectField name="expYear" label="Expiry year" required placeholder="YYYY" options={paymentCardYears(now).map((y) => ({ value: String(y), label: String(y) }))} autoComplete="cc-exp-year" />
      </div>
      <div className="form-row">
        <FormattedField name="cvv" label="CVV" required format={(value) => value.replace(/\D/g, '').slice(0, 4)} inputMode="numeric" autoComplete="cc-csc" />
        <FormattedField name="zip" label="ZIP code" required={!demoMode} format={(value) => value.replace(/\D/g, '').slice(0, 5)} inputMode="numeric" autoComplete="postal-code" />
      </div>
      {demoMode && <Notice tone="info">Demo mode: no real payment is made. The card is checked, never stored: only its brand and last 4 digits are kept for the receipt.</Notice>}
      <div className="button-row upgrade-pay-actions">
        <Button variant="secondary" onClick={onCancel} disabled={upgrade.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={upgrade.isPending}>
          Pay {formatUsd(choice.amountCents)}
        </Button>
      </div>
    </Form>
  );
}
