import { formatUsd } from '../../../../core/money';
import { ButtonLink } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { useDrafts } from '../../drafts';

/**
 * Saved combines waiting to be finished. Save for Later says 'You can resume later from your
 * dashboard' (docs/rules.md#save-for-later), so the dashboard shows them and leads to /resume-combine. Nothing while
 * they load or when none is saved; a failed load is /resume-combine's to report.
 */
export function SavedCombines() {
  const drafts = useDrafts();
  const list = drafts.data ?? [];
  const latest = list[0];
  if (!latest) return null;
  return (
    <Notice tone="info" title={list.length === 1 ? 'You have a saved combine' : `You have ${list.length} saved combines`} className="dashboard-saved">
      <p>
        {list.length === 1
          ? `Your combine of ${formatUsd(latest.totalAmountCents)} is waiting where you left it.`
          : `The latest, of ${formatUsd(latest.totalAmountCents)}, and the others are waiting where you left them.`}
      </p>
      <div className="button-row">
        <ButtonLink to="/resume-combine" variant="secondary" size="sm">
          Resume Combine
        </ButtonLink>
      </div>
    </Notice>
  );
}
