import type { CardReveal } from '../../../../contracts/cards';
import { groupCardNumber } from '../../../../core/cards';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { REVEAL_VISIBLE_MS } from './use-reveal-section';

/** The revealed number, expiry and CVV, each with a copy button, and 'Hide details'. */
export function RevealedDetails({ details, onCopy, onHide }: { details: CardReveal; onCopy: (label: string, value: string) => void; onHide: () => void }) {
  const expiry = `${details.expiryMonth}/${details.expiryYear}`;
  // [label, as shown, as copied, the copy button's name]
  const rows: Array<[string, string, string, string]> = [
    ['Card number', groupCardNumber(details.number), details.number, 'Copy card number'],
    ['Expiry', expiry, expiry, 'Copy expiry'],
    ['CVV', details.cvv, details.cvv, 'Copy CVV'],
  ];
  return (
    <section className="reveal" aria-label="Card details">
      <dl className="reveal-list">
        {rows.map(([label, shown, copied, copyName]) => (
          <div key={label} className="reveal-row">
            <dt>{label}</dt>
            <dd>
              <span className="reveal-value">{shown}</span>
              <Button variant="ghost" size="sm" onClick={() => onCopy(label, copied)} aria-label={copyName}>
                Copy
              </Button>
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-small text-muted">These details hide again after {REVEAL_VISIBLE_MS / 1000} seconds or when you leave this tab.</p>
      <Button variant="secondary" size="sm" onClick={onHide}>
        <Icon name="lock" size={16} />
        Hide details
      </Button>
    </section>
  );
}
