import { Link } from 'react-router';
import type { Card } from '../../../contracts/cards';
import { centsToInputString, formatUsd } from '../../../core/money';
import { PLANS, payoutMethodList } from '../../../core/plans';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { SelectField } from '../../ui/SelectField';
import { AmountField } from './AmountField';
import { CashoutFeePreview } from './CashoutFeePreview';
import { CashoutPayoutDetails } from './CashoutPayoutDetails';
import type { CashoutFormState } from './use-cashout-form';

// What tells the cards apart first: a phone's select (375 px) shows about 26 characters.
const cardLabel = (card: Card) =>
  `•••• ${card.last4}: ${formatUsd(card.remainingAmountCents)} left${card.status === 'expired' ? ', expired' : ''} (${card.network === 'visa' ? 'Visa' : 'Mastercard'})`;

/** The form step: card, amount, payout method, the payout details when asked, the fee preview and Cash Out. */
export function CashoutFields({ state, compact }: { state: CashoutFormState; compact: boolean }) {
  const { form, payout, selected, method } = state;
  const { plan, choices } = payout;
  const upgradeMethods = PLANS['premium+'].payoutMethods.filter((m) => !PLANS[plan].payoutMethods.includes(m));
  return (
    <>
      <SelectField
        name="cardId"
        label="Card"
        required
        placeholder="Select a card"
        options={state.shownCards.map((card) => ({ value: card.id, label: cardLabel(card) }))}
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
        options={choices.map((m) => ({ value: m, label: payout.methodLabel(m) }))}
        hint={
          upgradeMethods.length > 0 ? (
            <>
              {PLANS[plan].name} plan: {payoutMethodList(choices, 'and')}.{' '}
              <Link to="/upgrade">Upgrade</Link> for {payoutMethodList(upgradeMethods, 'and')}.
            </>
          ) : undefined
        }
      />

      {method && <CashoutPayoutDetails method={method} refused={state.refused} asked={payout.needsDetails(method)} saved={payout.isSaved(method)} details={state.details} />}

      <CashoutFeePreview preview={state.preview} promoActive={payout.promoActive} showProcessing={method !== null} compact={compact} />

      {state.formError && (
        <Notice tone="error" role="alert">
          {state.formError}
        </Notice>
      )}
      <div className="button-row">
        <Button type="submit" loading={state.busy}>
          Cash Out
        </Button>
      </div>
      {!compact && (
        <Notice tone="info">Demo mode: no real money moves. In a live account the payout reaches you in 1-3 business days.</Notice>
      )}
    </>
  );
}
