import type { Combine } from '../../../../contracts/combines';
import { CREATION_FEE_CENTS } from '../../../../core/fees';
import { Badge, StatusBadge } from '../../../ui/Badge';
import { Money } from '../../../ui/Money';
import { formatDateTime, providerLabel } from '../history-format';
import { CombineCardSection } from './CombineCardSection';
import { CombineSourcesTable } from './CombineSourcesTable';

/**
 * Everything /history shows about one completed combine (docs/rules.md#screens): created and completed times,
 * status, promo, each source with provider, type, amount and fee, the BNPL maximum and actual
 * fee, the rebate and the resulting card. Used by the modal and by /history/:id alike.
 */
export function CombineDetails({ combine, headingLevel = 3 }: { combine: Combine; headingLevel?: 2 | 3 }) {
  const rebateCents = combine.rebates.reduce((sum, r) => sum + r.rebateAmountCents, 0);
  const rebateStatus = combine.rebates.length === 0 ? null : combine.rebates.every((r) => r.status === 'processed') ? 'processed' : 'pending';
  const hasBnpl = combine.sources.some((s) => s.type === 'bnpl');
  // The $0.10 card-creation fee: on top of the source the user chose (so that source's charge and
  // fee include it, as the review showed), or, by default, taken from the new card.
  const feePayer = combine.creationFeeSourceIdx === -1 ? null : (combine.sources.find((s) => s.position === combine.creationFeeSourceIdx) ?? null);
  const creationFee = (source: Combine['sources'][number]) => (source === feePayer ? CREATION_FEE_CENTS : 0);
  return (
    <div className="combine-details">
      <dl className="history-facts">
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(combine.createdAt)}</dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd>{formatDateTime(combine.completedAt)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={combine.status} />
          </dd>
        </div>
        <div>
          <dt>Promo</dt>
          <dd>
            <PromoFact combine={combine} />
          </dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>
            <Money cents={combine.totalAmountCents} />
          </dd>
        </div>
        <div>
          <dt>Tax buffer</dt>
          <dd>
            <Money cents={combine.taxBufferCents} />
          </dd>
        </div>
        <div>
          <dt>Card-creation fee</dt>
          <dd>
            <Money cents={CREATION_FEE_CENTS} />{' '}
            <span className="text-muted">
              {feePayer ? `added to ${providerLabel(feePayer.type, feePayer.provider)}${feePayer.last4 ? ` •••• ${feePayer.last4}` : ''}` : 'taken from the new card'}
            </span>
          </dd>
        </div>
      </dl>

      <CombineSourcesTable sources={combine.sources} creationFee={creationFee} headingLevel={headingLevel} />

      {hasBnpl && (
        <dl className="history-facts">
          <div>
            <dt>BNPL fee (maximum)</dt>
            <dd>
              <Money cents={combine.bnplFeeMaxCents} />
            </dd>
          </div>
          <div>
            <dt>BNPL fee (actual)</dt>
            <dd>
              <Money cents={combine.bnplFeeActualCents} />
            </dd>
          </div>
          <div>
            <dt>Rebate</dt>
            <dd>
              <Money cents={rebateCents} /> {rebateStatus && <StatusBadge status={rebateStatus} />}
            </dd>
          </div>
        </dl>
      )}

      <CombineCardSection card={combine.card} headingLevel={headingLevel} />
    </div>
  );
}

/**
 * Whether the launch promo halved this combine's product fee (decision 167). The spec's
 * promo_applied marks only the combine that claimed the spot; the ones completed while the promo
 * ran had the same discount, unless a boost waived the fee or the plan had none.
 */
function PromoFact({ combine }: { combine: Combine }) {
  const badge = <Badge tone="success">50% Off Platform Fees</Badge>;
  if (combine.promoApplied) return <>{badge}, claimed with this card</>;
  return combine.promoDiscount ? badge : <>Not applied</>;
}
