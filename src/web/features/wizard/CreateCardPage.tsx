import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '../../ui/Button';
import { ErrorState } from '../../ui/ErrorState';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { AmountStep } from './components/AmountStep';
import { BnplCheckoutStep } from './components/BnplCheckoutStep';
import { BnplSetupStep } from './components/BnplSetupStep';
import { CardAlreadyCreated, ProcessingStep, SuccessStep } from './components/ResultSteps';
import { ReviewStep } from './components/ReviewStep';
import { SourcesStep } from './components/SourcesStep';
import { WizardProgress } from './components/WizardProgress';
import { useWizard } from './use-wizard';
import type { SourcePrefill, Wizard } from './use-wizard';
import './wizard.css';

/** `?fromCard=<id>&amountCents=<n>` ('Use as Source' on My Cards) as a source to preselect. */
function prefillFrom(params: URLSearchParams): SourcePrefill | null {
  const sourceCardId = params.get('fromCard');
  if (!sourceCardId) return null;
  const amount = Number(params.get('amountCents'));
  return { sourceCardId, amountCents: Number.isSafeInteger(amount) && amount > 0 ? amount : null };
}

/** `?step=<n>` as the step to reopen a draft on; the draft itself decides whether it still can. */
function stepFrom(params: URLSearchParams): number | null {
  const step = Number(params.get('step'));
  return Number.isInteger(step) && step >= 1 ? step : null;
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
  const [params, setParams] = useSearchParams();
  // The draft and step the address named when this wizard opened; later changes are its own writes.
  const [opened, setOpened] = useState(() => ({ draftId: resumeId ?? params.get('combine'), step: stepFrom(params) }));
  const wizard = useWizard({ resumeId: opened.draftId, resumeStep: opened.step, prefill });
  const navigate = useNavigate();
  const location = useLocation();
  const { state, view, machine, resuming, resumeProblem, completedCombine } = wizard;

  // Keep the draft's id and step in the address, replacing the entry (no history per step). While
  // the card is being created it stays, so a reload then finds out what became of it (decision
  // 178); once the card is made the draft is spent, and a reload starts a new card.
  useEffect(() => {
    if (resuming || resumeProblem || completedCombine) return;
    const next = new URLSearchParams(params);
    if (state.combineId !== null && state.step <= 6) {
      next.set('combine', state.combineId);
      next.set('step', String(state.step));
    } else {
      next.delete('combine');
      next.delete('step');
    }
    if (next.toString() !== params.toString()) setParams(next, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the wizard's own changes write the address
  }, [state.combineId, state.step, resuming, resumeProblem, completedCombine]);

  // Spec: focus moves to the new step's heading, so keyboard and screen-reader users start there.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      // A fresh wizard opened from 'Create another card' is a step change for the user too.
      if (!(location.state as { focusWizard?: boolean } | null)?.focusWizard) return;
    }
    if (resuming) return;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a step change moves focus
  }, [state.step, resuming]);

  const startOver = () => {
    wizard.actions.reset();
    // The draft this wizard reopened is now a completed combine, no longer one to restore.
    setOpened({ draftId: null, step: null });
    navigate('/create-card', { replace: true, state: { focusWizard: true } });
  };

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

function StepBody({ wizard, onCreateAnother }: { wizard: Wizard; onCreateAnother: () => void }) {
  switch (wizard.view.view) {
    case 'amount':
      return (
        <AmountStep
          wizard={wizard}
          prefillNote={
            wizard.state.prefill
              ? 'You are using one of your PayWeave cards as a source. Set the amount you need; the card is preselected on the next step.'
              : null
          }
        />
      );
    case 'sources':
      return <SourcesStep wizard={wizard} />;
    case 'bnpl_setup':
      return <BnplSetupStep wizard={wizard} />;
    case 'bnpl_checkout':
      return <BnplCheckoutStep wizard={wizard} />;
    case 'review':
      return <ReviewStep wizard={wizard} onStartOver={onCreateAnother} />;
    case 'processing':
      return <ProcessingStep />;
    case 'success':
      return <SuccessStep result={wizard.state.result} onCreateAnother={onCreateAnother} />;
  }
}
