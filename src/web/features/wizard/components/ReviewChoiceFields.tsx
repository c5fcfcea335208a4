import { CARD_VALIDITY } from '../../../../core/cards';
import { CREATION_FEE_CENTS } from '../../../../core/fees';
import { formatUsd } from '../../../../core/money';
import type { Combine } from '../../../../contracts/combines';
import { Icon } from '../../../ui/Icon';
import { sourceName } from '../labels';
import type { ReviewChoices } from '../use-wizard';

export function CreationFeeChoice({ combine, choices, onChange }: { combine: Combine; choices: ReviewChoices; onChange: (c: Partial<ReviewChoices>) => void }) {
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

export function CardTypeChoice({ choices, onChange }: { choices: ReviewChoices; onChange: (c: Partial<ReviewChoices>) => void }) {
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
