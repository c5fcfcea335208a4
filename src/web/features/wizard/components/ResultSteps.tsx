import { formatUsd } from '../../../../core/money';
import type { Combine, CompleteCombineResponse } from '../../../../contracts/combines';
import { ButtonLink, Button } from '../../../ui/Button';
import { cardArtClass } from '../../../ui/card-art';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { formatDate, networkLabel } from '../labels';

/** Step 6: the create call is running; no Back, money is moving. */
export function ProcessingStep() {
  return (
    <div className="wizard-step-body processing">
      <Spinner label="Creating your virtual card" showLabel />
      <p className="text-muted">
        We are charging your sources and issuing your card. This takes a few seconds; please keep this page open.
      </p>
    </div>
  );
}

const CARD_TYPE_LABELS = { general: 'General', 'single-use': 'Single-use' } as const;

/** Step 7: the card that was created, or the spec's message when it is missing. */
export function SuccessStep({ result, onCreateAnother }: { result: CompleteCombineResponse | null; onCreateAnother: () => void }) {
  const card = result?.card ?? null;
  // The printed MM/YY is the month the validity ends (docs/decisions/051): one date everywhere.
  const printed = card ? `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}` : '';
  return (
    <div className="wizard-step-body">
      {result?.promoApplied && (
        <Notice tone="success" title="Promo Applied Successfully!">
          You have 50% off the product fee for the next 12 months, starting with this card.
        </Notice>
      )}
      {card ? (
        <div className="success-layout">
          <div className={`virtual-card ${cardArtClass(card.network, card.type)}`} aria-hidden="true">
            <div className="virtual-card-top">
              <span className="virtual-card-brand">PayWeave</span>
              <span className="virtual-card-network">{networkLabel(card.network)}</span>
            </div>
            <div className="virtual-card-number">{card.maskedNumber}</div>
            <div className="virtual-card-bottom">
              <span>
                <small>Valid thru</small>
                {printed}
              </span>
              <span className="virtual-card-amount">{formatUsd(card.originalAmountCents)}</span>
            </div>
          </div>
          <dl className="card fee-list success-details">
            <div>
              <dt>Card number</dt>
              <dd className="field-mono" data-testid="card-masked-number">
                {card.maskedNumber}
              </dd>
            </div>
            <div>
              <dt>Network</dt>
              <dd>{networkLabel(card.network)}</dd>
            </div>
            <div className="fee-list-total">
              <dt>Amount</dt>
              <dd data-testid="card-amount">{formatUsd(card.originalAmountCents)}</dd>
            </div>
            <div>
              <dt>Type</dt>
              <dd>{CARD_TYPE_LABELS[card.type]}</dd>
            </div>
            <div>
              <dt>Valid until</dt>
              <dd>
                {formatDate(card.validUntil)} (printed as {printed})
                {card.type === 'single-use' ? ', or until the balance reaches zero' : ''}
              </dd>
            </div>
          </dl>
        </div>
      ) : (
        <Notice tone="warning">Card details not available.</Notice>
      )}
      <p className="text-muted">The full number, expiry and CVV can be revealed from My Cards whenever you need them.</p>
      <div className="button-row success-actions">
        <ButtonLink to="/my-cards">
          <Icon name="card" size={18} />
          Go to My Cards
        </ButtonLink>
        <ButtonLink to="/dashboard" variant="secondary">
          Dashboard
        </ButtonLink>
        <Button variant="ghost" onClick={onCreateAnother}>
          Create another card
        </Button>
      </div>
    </div>
  );
}

/**
 * A combine reopened after it made its card: the page was reloaded (or left and reopened) while
 * the card was being created, or another tab created it. Says the card exists, so nobody makes
 * it a second time, and leads to it (decision 178).
 */
export function CardAlreadyCreated({ combine, onCreateAnother }: { combine: Combine; onCreateAnother: () => void }) {
  const card = combine.card;
  return (
    <div className="card wizard-panel">
      <h2 className="wizard-heading">Your card was created</h2>
      <div className="wizard-step-body">
        <Notice tone="success" title="Card created">
          {card
            ? `Your ${networkLabel(card.network)} card ending ${card.last4} was created with ${formatUsd(card.originalAmountCents)} on it.`
            : 'The card of this combine was created.'}{' '}
          Nothing more is charged for it.
        </Notice>
        <div className="button-row success-actions">
          <ButtonLink to="/my-cards">
            <Icon name="card" size={18} />
            Go to My Cards
          </ButtonLink>
          <ButtonLink to={`/history/${encodeURIComponent(combine.id)}`} variant="secondary">
            View details
          </ButtonLink>
          <Button variant="ghost" onClick={onCreateAnother}>
            Create another card
          </Button>
        </div>
      </div>
    </div>
  );
}
