import type { FormEvent } from 'react';
import { RECOMMENDED_TAX_BUFFER_PERCENT } from '../../../../core/amount';
import { combinesLeftText, monthlyLimitMessage } from '../../../../core/limits';
import { formatUsd } from '../../../../core/money';
import { useSession } from '../../../lib/session';
import { Button } from '../../../ui/Button';
import { Link } from 'react-router';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { useMonthlyAllowance } from '../api';
import type { Wizard } from '../use-wizard';
import { WizardActions } from './WizardActions';
import { TaxBufferField } from './TaxBufferField';
import { WizardField } from './WizardField';

/** Step 1: the purchase amount plus a tax buffer gives the card total (docs/rules.md#wizard-steps, docs/rules.md#amount-step). */
export function AmountStep({ wizard, prefillNote }: { wizard: Wizard; prefillNote: string | null }) {
  const { state, actions, pending } = wizard;
  const { amount, totals, amountError } = state;
  const { profile } = useSession();
  const allowance = useMonthlyAllowance();
  const limitReached = allowance.data?.remaining === 0 && profile !== null;

  const onCalculate = (event: FormEvent) => {
    event.preventDefault();
    actions.calculate();
  };

  return (
    <div className="wizard-step-body">
      <p className="wizard-lead">
        How much do you need on your card? Add a buffer for sales tax and shipping: we recommend{' '}
        {RECOMMENDED_TAX_BUFFER_PERCENT}%.
      </p>
      {limitReached ? (
        <Notice tone="warning" title="Monthly limit reached" role="alert">
          {monthlyLimitMessage(profile.subscription)} <Link to="/upgrade">See plans</Link>
        </Notice>
      ) : (
        allowance.data &&
        combinesLeftText(allowance.data) && (
          <p className="wizard-allowance text-small" data-testid="combines-left">
            {combinesLeftText(allowance.data)}
          </p>
        )
      )}
      {prefillNote && <Notice tone="info">{prefillNote}</Notice>}
      <form className="form wizard-amount-form" noValidate onSubmit={onCalculate}>
        <div className="form-row">
          <WizardField label="Purchase amount" required prefix="$" hint="Before tax, e.g. 500.00">
            {(control) => (
              <input
                {...control}
                className="field-input"
                type="text"
                inputMode="decimal"
                autoComplete="off"
                value={amount.baseInput}
                onChange={(event) => actions.editAmount('baseInput', event.target.value)}
              />
            )}
          </WizardField>
          <TaxBufferField wizard={wizard} />
        </div>

        {amountError && (
          <Notice tone="error" role="alert">
            {amountError}
          </Notice>
        )}

        <div className="wizard-calc-row">
          <Button type="submit" variant="secondary">
            <Icon name="percent" size={18} />
            Calculate
          </Button>
          <div className="wizard-total" aria-live="polite">
            {totals ? (
              <dl className="wizard-total-figures">
                <div>
                  <dt>Purchase</dt>
                  <dd>{formatUsd(totals.baseCents)}</dd>
                </div>
                <div>
                  <dt>Tax buffer</dt>
                  <dd>{formatUsd(totals.taxBufferCents)}</dd>
                </div>
                <div className="wizard-total-main">
                  <dt>Card total</dt>
                  <dd data-testid="combined-total">{formatUsd(totals.totalCents)}</dd>
                </div>
              </dl>
            ) : (
              <p className="text-muted text-small">Calculate to see your card total, then continue.</p>
            )}
          </div>
        </div>
      </form>

      <WizardActions>
        {/* At the limit nothing would complete, so nothing starts: no card is held in vain. */}
        <Button onClick={() => void actions.continueFromAmount()} disabled={!totals || limitReached} loading={pending.amount}>
          Continue
          <Icon name="arrowRight" size={18} />
        </Button>
      </WizardActions>
    </div>
  );
}
