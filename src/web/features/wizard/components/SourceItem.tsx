import { formatUsd } from '../../../../core/money';
import type { CombineSource } from '../../../../contracts/combines';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { sourceName, sourceTypeLabel } from '../labels';

/** One added source: its name and type, 'Remove', and what it is charged and what reaches the card. */
export function SourceItem({ source, removing, onRemove }: { source: CombineSource; removing: boolean; onRemove: () => void }) {
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
