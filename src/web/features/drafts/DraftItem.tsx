import { formatUsd } from '../../../core/money';
import { PROGRESS_STEP_COUNT, WIZARD_STEPS } from '../../../core/wizard';
import type { CombineSummary } from '../../../contracts/combines';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

const savedDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Step 3 of 6: BNPL Setup"; a draft without a saved step resumes at step 1 (docs/rules.md#bnpl-steps). */
export function stepLabel(step: number): string {
  const known = WIZARD_STEPS.find((s) => s.step === step) ?? { step: 1, title: 'Amount' };
  return `Step ${Math.min(known.step, PROGRESS_STEP_COUNT)} of ${PROGRESS_STEP_COUNT}: ${known.title}`;
}

/** One saved combine: its amount, sources, when it was saved, its progress, and Delete / Continue. */
export function DraftItem({ draft, onDelete, onContinue }: { draft: CombineSummary; onDelete: () => void; onContinue: () => void }) {
  return (
    <li className="card draft-item">
      <div className="draft-main">
        <p className="draft-amount">{formatUsd(draft.totalAmountCents)}</p>
        <dl className="draft-meta">
          <div>
            <dt>Sources</dt>
            <dd>
              {draft.sourceCount} {draft.sourceCount === 1 ? 'source' : 'sources'}
            </dd>
          </div>
          <div>
            <dt>Saved</dt>
            <dd>{savedDate.format(new Date(draft.savedAt ?? draft.createdAt))}</dd>
          </div>
          <div>
            <dt>Progress</dt>
            <dd>{stepLabel(draft.currentStep)}</dd>
          </div>
          {draft.keptUntil ? (
            <div>
              <dt>Kept until</dt>
              <dd>{savedDate.format(new Date(draft.keptUntil))}</dd>
            </div>
          ) : null}
        </dl>
      </div>
      <div className="draft-actions">
        <Button
          variant="ghost"
          onClick={onDelete}
          aria-label={`Delete saved combine of ${formatUsd(draft.totalAmountCents)}`}
        >
          Delete
        </Button>
        <Button onClick={onContinue} aria-label={`Continue Combine of ${formatUsd(draft.totalAmountCents)}`}>
          Continue Combine
          <Icon name="arrowRight" size={18} />
        </Button>
      </div>
    </li>
  );
}
