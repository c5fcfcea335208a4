import { useEffect } from 'react';
import { BOOSTS, BOOST_MESSAGES, canUseBoost } from '../../../../core/boosts';
import type { Quote } from '../../../../contracts/combines';
import { Icon } from '../../../ui/Icon';
import { useToast } from '../../../ui/toast';
import type { Wizard } from '../use-wizard';

export function BoostChoice({ wizard, quote }: { wizard: Wizard; quote: Quote }) {
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
