import type { ReactNode } from 'react';
import { Button } from './Button';
import { Icon } from './Icon';

type ErrorStateProps = {
  /** What failed, e.g. 'Failed to load cards'. */
  title?: string;
  /** The error's own message, shown as is. */
  message: string;
  onRetry?: () => void;
  /** True while the retry runs: the button reads 'Processing...' and is disabled. */
  retrying?: boolean;
  headingLevel?: 2 | 3 | 4;
  compact?: boolean;
  children?: ReactNode;
};

/**
 * docs/rules.md#honest-figures: a failed load shows its error and a way to retry; never sample or made-up data.
 * role="alert" makes screen readers announce the failure when it appears.
 */
export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
  retrying = false,
  headingLevel = 2,
  compact = false,
  children,
}: ErrorStateProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={compact ? 'state state--error state--compact' : 'state state--error'} role="alert">
      <div className="state-icon">
        <Icon name="alertCircle" />
      </div>
      <Heading className="state-title">{title}</Heading>
      <p className="state-text">{message}</p>
      {children}
      {onRetry && (
        <div className="state-actions">
          <Button variant="secondary" onClick={onRetry} loading={retrying} loadingText="Retrying...">
            <Icon name="refresh" size={18} />
            Retry
          </Button>
        </div>
      )}
    </div>
  );
}
