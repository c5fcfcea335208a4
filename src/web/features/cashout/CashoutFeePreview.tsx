import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PROCESSING_NOTE } from './CashoutSuccess';

export type FeePreview = { amountCents: number; ratePpm: number; feeCents: number; netCents: number };

/** The live fee preview (docs/rules.md#cashout-fee): the amount, the fee and what the user receives. */
export function CashoutFeePreview({ preview, promoActive, showProcessing, compact }: {
  preview: FeePreview | null;
  promoActive: boolean;
  /** A payout method is chosen: how long its payout takes. */
  showProcessing: boolean;
  compact: boolean;
}) {
  const Heading = compact ? 'h3' : 'h2';
  return (
    <section className="cashout-preview" aria-labelledby="cashout-preview-title" aria-live="polite">
      {/* h2 under the page's h1; h3 under the modal's h2 (heading order, axe). */}
      <Heading id="cashout-preview-title" className="cashout-preview-title">
        Fee preview
      </Heading>
      {preview ? (
        <dl className="cashout-summary">
          <div>
            <dt>Cash-out amount</dt>
            <dd data-testid="cashout-amount">{formatUsd(preview.amountCents)}</dd>
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
      {showProcessing && <p className="text-small text-muted">{PROCESSING_NOTE}</p>}
    </section>
  );
}
