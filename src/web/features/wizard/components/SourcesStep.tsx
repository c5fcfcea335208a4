import { useRef } from 'react';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useActiveCards } from '../api';
import type { Wizard } from '../use-wizard';
import { FundingSummary } from './FundingSummary';
import { SourceForm } from './SourceForm';
import { SourceItem } from './SourceItem';
import { WizardActions } from './WizardActions';

/** Step 2: add sources until what reaches the card covers the total (docs/rules.md#wizard-steps, docs/rules.md#funding, docs/rules.md#source-validation). */
export function SourcesStep({ wizard }: { wizard: Wizard }) {
  const { combine, funding, actions, pending, state } = wizard;
  const activeCards = useActiveCards();
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  if (!combine || !funding) {
    return (
      <div className="wizard-loading">
        <Spinner label="Loading your sources" showLabel />
      </div>
    );
  }

  return (
    <div className="wizard-step-body">
      <FundingSummary combine={combine} />
      <div className="sources-layout">
        <div className="card source-form-card">
          <SourceForm
            combine={combine}
            activeCards={activeCards.data ?? []}
            prefill={state.prefill}
            onPrefillUsed={actions.usePrefill}
            onAdd={actions.addSource}
            adding={pending.addSource}
            onAdded={() => listHeadingRef.current?.focus()}
          />
        </div>
        <section className="card sources-list-card" aria-labelledby="sources-list-heading">
          <h3 id="sources-list-heading" ref={listHeadingRef} tabIndex={-1} className="wizard-subheading">
            Your sources ({combine.sources.length})
          </h3>
          {combine.sources.length === 0 ? (
            <p className="text-muted">No sources yet. Add a card or a BNPL plan to start funding your card.</p>
          ) : (
            <ul className="source-list">
              {combine.sources.map((source) => (
                <SourceItem
                  key={source.id}
                  source={source}
                  removing={pending.removeSourceId === source.id}
                  onRemove={async () => {
                    if (await actions.removeSource(source.id)) listHeadingRef.current?.focus();
                  }}
                />
              ))}
            </ul>
          )}
        </section>
      </div>

      <WizardActions onBack={actions.back}>
        {!funding.ok && (
          <p className="wizard-actions-note" role="status">
            {funding.message}
          </p>
        )}
        <Button onClick={actions.continueFromSources} disabled={!funding.ok}>
          Continue
          <Icon name="arrowRight" size={18} />
        </Button>
      </WizardActions>
    </div>
  );
}
