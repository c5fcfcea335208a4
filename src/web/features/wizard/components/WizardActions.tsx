import type { ReactNode } from 'react';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';

const ARROW_LEFT = 'M19 12H5M12 19l-7-7 7-7';

/** The bottom row of a step: Back at the left, the step's actions at the right (stacked on phones). */
export function WizardActions({ onBack, backDisabled, children }: { onBack?: () => void; backDisabled?: boolean; children?: ReactNode }) {
  return (
    <div className="wizard-actions">
      {onBack ? (
        <Button variant="ghost" onClick={onBack} disabled={backDisabled} className="wizard-back">
          <Icon d={ARROW_LEFT} size={18} />
          Back
        </Button>
      ) : (
        <span className="wizard-back-placeholder" />
      )}
      <div className="wizard-actions-end">{children}</div>
    </div>
  );
}
