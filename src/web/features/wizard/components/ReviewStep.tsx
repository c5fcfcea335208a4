import { useEffect } from 'react';
import { BOOSTS, BOOST_MESSAGES, canUseBoost } from '../../../../core/boosts';
import { CARD_VALIDITY } from '../../../../core/cards';
import { CREATION_FEE_CENTS } from '../../../../core/fees';
import { formatPpmAsPercent, formatUsd } from '../../../../core/money';
import type { Combine, Quote } from '../../../../contracts/combines';
import { Badge } from '../../../ui/Badge';
import { Button, ButtonLink } from '../../../ui/Button';
import { ErrorState } from '../../../ui/ErrorState';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { useToast } from '../../../ui/toast';
import { useQuote } from '../api';
import { errorMessage } from '../../../lib/api';
import { sourceName } from '../labels';
import { quoteFingerprint } from '../../../../core/wizard-flow';
import type { ReviewChoices, Wizard } from '../use-wizard';
import { WizardActions } from './WizardActions';

/**
 * Review (step 4 without BNPL, and step 5): the server's quote as a breakdown, and the choices
 * it depends on. Only step 5 offers 'Create Virtual Card' (core/wizard.ts).
 */
export function ReviewStep({ wizard, onStartOver }: { wizard: Wizard; onStartOver: () => void }) {
  const { combine, state, actions, view, pending } = wizard;
  const isFinal = view.primaryAction === 'create_card';
  // Each pick asks again, and the server's quote stores the choices on the draft: a reload shows
  // them as last picked (decision 160).
  const quoteQuery = useQuote(state.combineId, state.choices, combine ? quoteFingerprint(combine) : '', combine !== null);
  // After a 409 quote_changed the server's new figures are what the user must review.
  const quote = state.changedQuote ?? quoteQuery.data ?? null;
  const stale = state.changedQuote === null && quoteQuery.isPlaceholderData;

  if (!combine) return null;
  if (quoteQuery.isError && !quote) {
    return (
      <div className="wizard-step-body">
        <ErrorState
          title="Failed to load the fee breakdown"
          message={errorMessage(quoteQuery.error, 'Please try again.')}
          onRetry={() => void quoteQuery.refetch()}
          retrying={quoteQuery.isFetching}
          headingLevel={3}
        />
        <WizardActions onBack={actions.back} />
      </div>
    );
  }
  if (!quote) {
    return (
      <div className="wizard-loading">
        <Spinner label="Calculating your fees" showLabel />
      </div>
    );
  }

  return (
    <div className="wizard-step-body">
      {wizard.completedElsewhere && (
        <Notice tone="info" role="alert" title="Your card already exists">
          This card was already created, perhaps in another tab or window. Nothing more was charged.
          <div className="button-row">
            <ButtonLink to="/my-cards" variant="secondary">
              Go to My Cards
            </ButtonLink>
            <Button variant="secondary" onClick={onStartOver}>
              Start a new card
            </Button>
          </div>
        </Notice>
      )}
      {state.changedQuote && state.changedQuote.canContinue && (
        <Notice tone="warning" role="alert" title="The figures changed, so nothing was charged">
          Something changed between your review and the creation (for example the last launch-promo spot was taken). Your
          sources were not charged. Please check the new figures below and create your card again.
        </Notice>
      )}
      {state.changedQuote && !state.changedQuote.canContinue && (
        <Notice tone="warning" role="alert" title="The figures changed, so nothing was charged">
          Something changed between your review and the creation (for example the last launch-promo spot was taken), and
          your sources now fall {formatUsd(state.changedQuote.remainingToFundCents)} short of the card amount. Your sources
          were not charged. Please add more on the Sources step.
          <div className="button-row">
            <Button variant="secondary" onClick={actions.backToSources}>
              Back to Sources
            </Button>
          </div>
        </Notice>
      )}
      <div className="review-layout">
        <div className="review-choices">
          <BoostChoice wizard={wizard} quote={quote} />
          <CreationFeeChoice combine={combine} choices={state.choices} onChange={actions.setChoices} />
          <CardTypeChoice choices={state.choices} onChange={actions.setChoices} />
        </div>
        <Breakdown combine={combine} quote={quote} updating={stale || quoteQuery.isFetching} />
      </div>
      <WizardActions onBack={actions.back} backDisabled={pending.create}>
        {isFinal ? (
          <Button size="lg" onClick={() => void actions.create(quote)} loading={pending.create} disabled={stale || !quote.canContinue || wizard.completedElsewhere}>
            <Icon name="card" size={20} />
            Create Virtual Card
          </Button>
        ) : (
          <Button onClick={actions.continueFromReview} disabled={!quote.canContinue}>
            Continue
            <Icon name="arrowRight" size={18} />
          </Button>
        )}
      </WizardActions>
    </div>
  );
}

function BoostChoice({ wizard, quote }: { wizard: Wizard; quote: Quote }) {
  const toast = useToast();
  const { state, actions } = wizard;
  const { setChoices } = actions;
  // The server's counts, read with this quote: the session's copy may be a combine behind.
  const counts = { boostsAvailable: quote.boost.available, boostsUsed: quote.boost.used };
  const lifetimeUsedUp = counts.boostsUsed >= BOOSTS.maxLifetimeUsed;

  // A boost chosen earlier (e.g. in a saved draft) that can no longer be used is unticked.
  const usable = canUseBoost(counts).ok;
  useEffect(() => {
    if (state.choices.useBoost && !usable) setChoices({ useBoost: false });
  }, [state.choices.useBoost, usable, setChoices]);

  const onToggle = (checked: boolean) => {
    if (checked) {
      const check = canUseBoost(counts);
      if (!check.ok) {
        toast.warning(check.reason === 'none_available' ? BOOST_MESSAGES.noneAvailable : check.message);
        return;
      }
    }
    setChoices({ useBoost: checked });
  };

  return (
    <fieldset className="card choice-card">
      <legend className="choice-legend">
        <Icon name="zap" size={18} />
        Fee boost
      </legend>
      <div className="checkbox-row">
        <input
          id="use-boost"
          type="checkbox"
          className="checkbox-input"
          checked={state.choices.useBoost}
          disabled={lifetimeUsedUp}
          aria-describedby="use-boost-hint"
          onChange={(e) => onToggle(e.target.checked)}
        />
        <label htmlFor="use-boost" className="checkbox-label choice-label">
          Use a boost to waive the product fee
        </label>
      </div>
      <p id="use-boost-hint" className="field-hint choice-hint">
        {lifetimeUsedUp
          ? BOOST_MESSAGES.lifetimeLimit
          : `You have ${counts.boostsAvailable} ${counts.boostsAvailable === 1 ? 'boost' : 'boosts'} available (${counts.boostsUsed} of ${BOOSTS.maxLifetimeUsed} used). You earn one for every ${BOOSTS.combinesPerBoost} combines.`}
      </p>
    </fieldset>
  );
}

function CreationFeeChoice({ combine, choices, onChange }: { combine: Combine; choices: ReviewChoices; onChange: (c: Partial<ReviewChoices>) => void }) {
  return (
    <fieldset className="card choice-card">
      <legend className="choice-legend">
        <Icon name="tag" size={18} />
        Who pays the {formatUsd(CREATION_FEE_CENTS)} card-creation fee?
      </legend>
      <div className="radio-list">
        <label className="radio-option">
          <input type="radio" name="creation-fee" checked={choices.creationFeeSourceIdx === -1} onChange={() => onChange({ creationFeeSourceIdx: -1 })} />
          <span>
            <span className="radio-title">The new card</span>
            <span className="radio-hint">Deducted from the card amount (default)</span>
          </span>
        </label>
        {combine.sources.map((source, index) => (
          <label key={source.id} className="radio-option">
            <input type="radio" name="creation-fee" checked={choices.creationFeeSourceIdx === index} onChange={() => onChange({ creationFeeSourceIdx: index })} />
            <span>
              <span className="radio-title">{sourceName(source)}</span>
              <span className="radio-hint">Added on top of this source’s charge</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function CardTypeChoice({ choices, onChange }: { choices: ReviewChoices; onChange: (c: Partial<ReviewChoices>) => void }) {
  return (
    <fieldset className="card choice-card">
      <legend className="choice-legend">
        <Icon name="card" size={18} />
        Card type
      </legend>
      <div className="radio-list">
        <label className="radio-option">
          <input type="radio" name="card-type" checked={choices.cardType === 'general'} onChange={() => onChange({ cardType: 'general' })} />
          <span>
            <span className="radio-title">General</span>
            <span className="radio-hint">Valid for {CARD_VALIDITY.generalMonths} months; spend it over several purchases.</span>
          </span>
        </label>
        <label className="radio-option">
          <input type="radio" name="card-type" checked={choices.cardType === 'single-use'} onChange={() => onChange({ cardType: 'single-use' })} />
          <span>
            <span className="radio-title">Single-use</span>
            <span className="radio-hint">Closes when its balance reaches zero or after {CARD_VALIDITY.singleUseDays} days.</span>
          </span>
        </label>
      </div>
    </fieldset>
  );
}

function Breakdown({ combine, quote, updating }: { combine: Combine; quote: Quote; updating: boolean }) {
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
