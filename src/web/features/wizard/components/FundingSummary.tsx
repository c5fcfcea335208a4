import { formatUsd } from '../../../../core/money';
import type { Combine } from '../../../../contracts/combines';

/** The card total, what reaches it after fees, what remains to fund, and a bar for it. */
export function FundingSummary({ combine }: { combine: Combine }) {
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
