import { formatPpmAsPercent, formatUsd } from '../../../../core/money';
import type { Combine, Quote } from '../../../../contracts/combines';
import { Badge } from '../../../ui/Badge';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { sourceName } from '../labels';

/** The quote as a breakdown: each fee, what each source is charged, and the card amount. */
export function Breakdown({ combine, quote, updating }: { combine: Combine; quote: Quote; updating: boolean }) {
  const feePayer = quote.creationFeeOnCard
    ? 'the new card'
    : (() => {
        const payer = quote.sources.find((s) => s.creationFeeCents > 0);
        const source = payer ? combine.sources[payer.index] : undefined;
        return source ? sourceName(source) : 'a source';
      })();
  return (
    <section className="card breakdown" aria-labelledby="breakdown-heading" aria-busy={updating || undefined}>
      <div className="breakdown-head">
        <h3 id="breakdown-heading" className="wizard-subheading">
          Fee breakdown
        </h3>
        {updating && <Spinner size="sm" label="Updating figures" />}
      </div>
      {quote.promoClaim && (
        <Notice tone="success" title="Launch promo">
          This card claims one of the remaining spots: its product fee is already halved below, and so are your product and cash-out fees for the next 12 months.
        </Notice>
      )}
      <dl className="breakdown-list">
        <div>
          <dt>Card total requested</dt>
          <dd>{formatUsd(quote.totalCents)}</dd>
        </div>
        <div className="breakdown-sub">
          <dt>of which tax buffer</dt>
          <dd>{formatUsd(quote.taxBufferCents)}</dd>
        </div>
        <div>
          <dt>
            Product fee ({formatPpmAsPercent(quote.productFeePpm)})
            {quote.promoApplies && !quote.boostUsed && (
              <>
                {' '}
                <Badge tone="success">50% launch promo</Badge>
              </>
            )}
            {quote.boostUsed && (
              <>
                {' '}
                <Badge tone="brand">Waived by boost</Badge>
              </>
            )}
          </dt>
          <dd data-testid="quote-product-fee">{formatUsd(quote.productFeeCents)}</dd>
        </div>
        <div>
          <dt>Processor fee</dt>
          <dd data-testid="quote-processor-fee">{formatUsd(quote.processorFeeCents)}</dd>
        </div>
        {quote.bnplFeeMaxCents > 0 && (
          <div>
            <dt>
              BNPL fee (expected)
              <span className="breakdown-note">
                {formatUsd(quote.bnplFeeMaxCents)} held; expected rebate {formatUsd(quote.rebateCents)}
              </span>
            </dt>
            <dd>{formatUsd(quote.bnplFeeActualCents)}</dd>
          </div>
        )}
        <div>
          <dt>
            Card-creation fee
            <span className="breakdown-note">Paid by {feePayer}</span>
          </dt>
          <dd>{formatUsd(quote.creationFeeCents)}</dd>
        </div>
      </dl>

      <h4 className="breakdown-subheading">What each source is charged</h4>
      <ul className="breakdown-sources">
        {quote.sources.map((s) => {
          const source = combine.sources[s.index];
          return (
            <li key={s.sourceId || s.index}>
              <span>
                {source ? sourceName(source) : `Source ${s.index + 1}`}
                {s.oneTimeCardChargeCents !== null && <span className="breakdown-note">one-time card, includes the 10% fee allowance</span>}
                {s.creationFeeCents > 0 && <span className="breakdown-note">includes the {formatUsd(s.creationFeeCents)} creation fee</span>}
              </span>
              <span className="money">{formatUsd(s.chargedCents)}</span>
            </li>
          );
        })}
        <li className="breakdown-sources-total">
          <span>Total charged to your sources</span>
          <span className="money" data-testid="quote-total-charged">{formatUsd(quote.totalChargedCents)}</span>
        </li>
      </ul>

      <div className="breakdown-card-amount">
        <span>Your virtual card</span>
        <strong data-testid="quote-card-amount">{formatUsd(quote.cardAmountCents)}</strong>
      </div>
      {quote.rebateCents > 0 && (
        <p className="text-small text-muted">
          The expected BNPL rebate of {formatUsd(quote.rebateCents)} is paid to your preferred payout method once the provider
          settles.
        </p>
      )}
    </section>
  );
}
