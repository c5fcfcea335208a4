import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../ui/Button';
import { ErrorState } from '../../ui/ErrorState';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { CardAlreadyCreated } from './components/ResultSteps';
import { StepBody } from './components/StepBody';
import { WizardProgress } from './components/WizardProgress';
import { useCreateCardWizard } from './use-create-card-wizard';
import type { SourcePrefill } from './use-wizard';
import './wizard.css';

/** `?fromCard=<id>&amountCents=<n>` ('Use as Source' on My Cards) as a source to preselect. */
function prefillFrom(params: URLSearchParams): SourcePrefill | null {
  const sourceCardId = params.get('fromCard');
  if (!sourceCardId) return null;
  const amount = Number(params.get('amountCents'));
  return { sourceCardId, amountCents: Number.isSafeInteger(amount) && amount > 0 ? amount : null };
}

/**
 * /create-card: the combine wizard (docs/rules.md#wizard-steps, docs/rules.md#save-for-later). `?resume=<id>` continues a saved draft;
 * `?combine=<id>&step=<n>` is the wizard's own draft, written there once it exists, so a reload or
 * Back then Forward reopens it (decision 160). A different saved draft or card in the address
 * starts a different wizard, hence the key; `combine` and `step` are not in it, since the wizard
 * writes them itself and must not restart when it does.
 */
export default function CreateCardPage() {
  const [params] = useSearchParams();
  const resumeId = params.get('resume');
  const prefill = prefillFrom(params);
  return <CreateCardWizard key={`${resumeId ?? ''}|${prefill?.sourceCardId ?? ''}`} resumeId={resumeId} prefill={prefill} />;
}

function CreateCardWizard({ resumeId, prefill }: { resumeId: string | null; prefill: SourcePrefill | null }) {
  const { wizard, headingRef, startOver } = useCreateCardWizard({ resumeId, prefill });
  const { view, machine, resuming, resumeProblem, completedCombine } = wizard;

  const header = (
    <PageHeader
      title="Create a Virtual Card"
      description="Combine your cards and BNPL plans into one virtual card. You see every fee before anything is charged."
    />
  );

  if (resumeProblem) {
    return (
      <section className="page wizard-page">
        {header}
        <ErrorState title={resumeProblem.message} message="The saved combine may have been completed or deleted.">
          <div className="state-actions">
            <ButtonLink to="/resume-combine" variant="secondary">
              Saved combines
            </ButtonLink>
            <ButtonLink to="/create-card">Start a new card</ButtonLink>
          </div>
        </ErrorState>
      </section>
    );
  }

  if (completedCombine) {
    return (
      <section className="page wizard-page">
        {header}
        <CardAlreadyCreated combine={completedCombine} onCreateAnother={startOver} />
      </section>
    );
  }

  if (resuming) {
    return (
      <section className="page wizard-page">
        {header}
        <div className="wizard-loading">
          <Spinner label="Loading your saved combine" showLabel />
        </div>
      </section>
    );
  }

  const heading = view.view === 'review' && view.primaryAction === 'create_card' ? 'Review and create' : view.title;

  return (
    <section className="page wizard-page">
      {header}
      <WizardProgress machine={machine} progressStep={view.progressStep} done={view.view === 'success'} />
      <div className="card wizard-panel">
        <h2 ref={headingRef} tabIndex={-1} className="wizard-heading">
          {heading}
        </h2>
        <StepBody wizard={wizard} onCreateAnother={startOver} />
      </div>
    </section>
  );
}
