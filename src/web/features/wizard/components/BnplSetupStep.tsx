import { formatUsd } from '../../../../core/money';
import type { CombineSource } from '../../../../contracts/combines';
import { usePublicConfig } from '../../../lib/public-config';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { useToast } from '../../../ui/toast';
import { providerLabel } from '../labels';
import type { Wizard } from '../use-wizard';
import { WizardActions } from './WizardActions';

/** DECISIONS: the merchant name a user types at the BNPL provider; used until /api/config answers. */
export const DEFAULT_PAY_ADDRESS = 'pay.payweave.example';

/** Step 3: how to get a one-time card from the BNPL provider (docs/rules.md#bnpl-steps). */
export function BnplSetupStep({ wizard }: { wizard: Wizard }) {
  const { combine, actions, pending } = wizard;
  const { config } = usePublicConfig();
  const payAddress = config?.payAddress ?? DEFAULT_PAY_ADDRESS;
  const bnplSources = combine?.sources.filter((s) => s.type === 'bnpl') ?? [];

  return (
    <div className="wizard-step-body">
      <p className="wizard-lead">
        Your BNPL provider pays through a one-time card that you create in its app or website. Make it{' '}
        <strong>110% of the BNPL amount</strong>: the extra 10% covers the provider’s fee, and whatever that fee does not
        use comes back to you as a rebate.
      </p>
      {bnplSources.map((source) => (
        <BnplInstructions key={source.id} source={source} payAddress={payAddress} />
      ))}
      <Notice tone="info">Nothing is charged yet. You enter the one-time card on the next step.</Notice>
      <WizardActions onBack={actions.back}>
        <Button variant="secondary" onClick={() => void actions.saveForLater()} loading={pending.save}>
          Save for Later
        </Button>
        <Button onClick={() => void actions.continueFromBnplSetup()} loading={pending.bnplSetup} disabled={pending.save}>
          I’ve created the card
          <Icon name="arrowRight" size={18} />
        </Button>
      </WizardActions>
    </div>
  );
}

function BnplInstructions({ source, payAddress }: { source: CombineSource; payAddress: string }) {
  const toast = useToast();
  const provider = providerLabel(source.provider);
  const oneTime = source.oneTimeCardChargeCents ?? source.chargeCents + source.bnplFeeMaxCents;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(payAddress);
      toast.success('Merchant name copied');
    } catch {
      toast.info(`Type the merchant name: ${payAddress}`);
    }
  };
  return (
    <section className="card bnpl-setup" aria-labelledby={`bnpl-${source.id}`}>
      <h3 id={`bnpl-${source.id}`} className="wizard-subheading">
        {provider}: one-time card of <span data-testid="one-time-card-amount">{formatUsd(oneTime)}</span>
      </h3>
      <ol className="bnpl-steps">
        <li>Open {provider} and choose to create a one-time (virtual) card for a purchase.</li>
        <li>
          Set the amount to exactly <strong>{formatUsd(oneTime)}</strong>: your {formatUsd(source.chargeCents)} plus up to{' '}
          {formatUsd(source.bnplFeeMaxCents)} for the provider’s fee.
        </li>
        <li>
          When asked for the merchant or store name, enter:
          <span className="merchant-name">
            <code>{payAddress}</code>
            <Button variant="ghost" size="sm" onClick={() => void copy()} aria-label={`Copy merchant name ${payAddress}`}>
              Copy
            </Button>
          </span>
        </li>
        <li>Keep the card number, expiry (MM/YY) and CVV at hand for the next step.</li>
      </ol>
      <dl className="fee-list fee-list--inline">
        <div>
          <dt>BNPL amount</dt>
          <dd>{formatUsd(source.chargeCents)}</dd>
        </div>
        <div>
          <dt>Fee allowance (10%)</dt>
          <dd>{formatUsd(source.bnplFeeMaxCents)}</dd>
        </div>
        <div>
          <dt>Expected {provider} fee</dt>
          <dd>{formatUsd(source.bnplFeeActualCents)}</dd>
        </div>
        <div>
          <dt>Expected rebate to you</dt>
          <dd>{formatUsd(source.rebateCents)}</dd>
        </div>
      </dl>
    </section>
  );
}
