import { formatUsd } from '../../../../core/money';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import type { SourceFormState } from '../use-source-form';
import { useWizardControl } from '../use-wizard-control';
import { WizardField } from './WizardField';

/** The amount to charge, the exact amount still needed, and (below the card fields) what the amount brings. */
export function SourceAmountFields({ source }: { source: SourceFormState }) {
  const amount = useWizardControl('amount', { onEdit: source.onEdit });
  const { remainingCents, suggestedCents } = source;
  const type = source.values.type;
  return (
    <>
      <WizardField
        label="Amount to charge"
        required
        prefix="$"
        error={amount.error}
        hint={type === 'bnpl' ? 'What the BNPL plan pays. Its one-time card will be 10% larger to cover the provider’s fee.' : undefined}
      >
        {(control) => (
          <input
            {...control}
            ref={amount.ref}
            onBlur={amount.onBlur}
            className="field-input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={amount.value}
            onChange={(e) => amount.set(e.target.value)}
          />
        )}
      </WizardField>
      {remainingCents > 0 && (
        <div className="exact-amount">
          <Button variant="secondary" size="sm" onClick={source.fillExactAmount} disabled={suggestedCents <= 0}>
            <Icon name="zap" size={16} />
            Charge the exact amount still needed
          </Button>
          <p className="text-small text-muted">
            {formatUsd(remainingCents)} still needed after fees: charge{' '}
            <strong>{formatUsd(suggestedCents)}</strong>
            {type === '' ? ' from a card' : ''}.
          </p>
        </div>
      )}
    </>
  );
}

export function SourcePreviewLine({ preview }: { preview: NonNullable<SourceFormState['preview']> }) {
  return (
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
  );
}
