import { useRef } from 'react';
import { formatUsd } from '../../../../core/money';
import type { Combine, CombineSource } from '../../../../contracts/combines';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useActiveCards } from '../api';
import { sourceName, sourceTypeLabel } from '../labels';
import type { Wizard } from '../use-wizard';
import { SourceForm } from './SourceForm';
import { WizardActions } from './WizardActions';

/** Step 2: add sources until what reaches the card covers the total (docs/rules.md#wizard-steps, docs/rules.md#funding, docs/rules.md#source-validation). */
export function SourcesStep({ wizard }: { wizard: Wizard }) {
  const { combine, funding, actions, pending, state } = wizard;
  const activeCards = useActiveCards();
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  if (!combine || !funding) {
    return (
      <div className="wizard-loading">
        <Spinner label="Loading your sources" showLabel />
      </div>
    );
  }

  return (
    <div className="wizard-step-body">
      <FundingSummary combine={combine} />
      <div className="sources-layout">
        <div className="card source-form-card">
          <SourceForm
            combine={combine}
            activeCards={activeCards.data ?? []}
            prefill={state.prefill}
            onPrefillUsed={actions.usePrefill}
            onAdd={actions.addSource}
            adding={pending.addSource}
            onAdded={() => listHeadingRef.current?.focus()}
          />
        </div>
        <section className="card sources-list-card" aria-labelledby="sources-list-heading">
          <h3 id="sources-list-heading" ref={listHeadingRef} tabIndex={-1} className="wizard-subheading">
            Your sources ({combine.sources.length})
          </h3>
          {combine.sources.length === 0 ? (
            <p className="text-muted">No sources yet. Add a card or a BNPL plan to start funding your card.</p>
          ) : (
            <ul className="source-list">
              {combine.sources.map((source) => (
                <SourceItem
                  key={source.id}
                  source={source}
                  removing={pending.removeSourceId === source.id}
                  onRemove={async () => {
                    if (await actions.removeSource(source.id)) listHeadingRef.current?.focus();
                  }}
                />
              ))}
            </ul>
          )}
        </section>
      </div>

      <WizardActions onBack={actions.back}>
        {!funding.ok && (
          <p className="wizard-actions-note" role="status">
            {funding.message}
          </p>
        )}
        <Button onClick={actions.continueFromSources} disabled={!funding.ok}>
          Continue
          <Icon name="arrowRight" size={18} />
        </Button>
      </WizardActions>
    </div>
  );
}

function FundingSummary({ combine }: { combine: Combine }) {
  const { totalAmountCents: total, funding } = combine;
  const funded = Math.min(funding.netTotalCents, total);
  const percent = total > 0 ? Math.round((funded / total) * 100) : 0;
  const remaining = funding.remainingToFundCents;
  return (
    <section className="funding-summary" aria-label="Funding">
      <dl className="funding-figures">
        <div>
          <dt>Card total</dt>
          <dd>{formatUsd(total)}</dd>
        </div>
        <div>
          <dt>Funded after fees</dt>
          <dd>{formatUsd(funding.netTotalCents)}</dd>
        </div>
        <div className={remaining > 0 ? 'funding-remaining' : 'funding-remaining is-done'}>
          <dt>Remaining to fund</dt>
          <dd data-testid="remaining-to-fund">{formatUsd(remaining)}</dd>
        </div>
      </dl>
      <div className="funding-bar" aria-hidden="true">
        <div className="funding-bar-fill" style={{ width: `${percent}%` }} />
      </div>
    </section>
  );
}

function SourceItem({ source, removing, onRemove }: { source: CombineSource; removing: boolean; onRemove: () => void }) {
  const name = sourceName(source);
  const isBnpl = source.type === 'bnpl';
  return (
    <li className="source-item">
      <div className="source-item-head">
        <div>
          <p className="source-item-name">{name}</p>
          <Badge tone={isBnpl ? 'info' : 'brand'}>{sourceTypeLabel(source.type)}</Badge>
        </div>
        <Button variant="ghost" size="sm" onClick={onRemove} loading={removing} loadingText="Removing..." aria-label={`Remove ${name}`}>
          <Icon name="x" size={16} />
          Remove
        </Button>
      </div>
      <dl className="fee-list">
        <div>
          <dt>Amount charged</dt>
          <dd>{formatUsd(source.chargeCents)}</dd>
        </div>
        <div>
          <dt>Processor fee</dt>
          <dd>−{formatUsd(source.processorFeeCents)}</dd>
        </div>
        <div>
          <dt>Product fee</dt>
          <dd>−{formatUsd(source.productFeeCents)}</dd>
        </div>
        <div className="fee-list-total">
          <dt>Reaches your card</dt>
          <dd>{formatUsd(source.netCents)}</dd>
        </div>
        {isBnpl && (
          <>
            <div>
              <dt>BNPL fee (max, held)</dt>
              <dd>{formatUsd(source.bnplFeeMaxCents)}</dd>
            </div>
            <div>
              <dt>Expected BNPL fee</dt>
              <dd>{formatUsd(source.bnplFeeActualCents)}</dd>
            </div>
            <div>
              <dt>Expected rebate</dt>
              <dd>{formatUsd(source.rebateCents)}</dd>
            </div>
            {source.oneTimeCardChargeCents !== null && (
              <div>
                <dt>One-time card amount</dt>
                <dd>{formatUsd(source.oneTimeCardChargeCents)}</dd>
              </div>
            )}
          </>
        )}
      </dl>
    </li>
  );
}
