import type { ReactNode } from 'react';
import { Icon } from './Icon';
import type { IconName } from './Icon';

type EmptyStateProps = {
  icon?: IconName;
  title: string;
  children?: ReactNode;
  /** Buttons or links, e.g. 'Create a Card'. */
  actions?: ReactNode;
  /** Heading level that fits the page's outline; h2 by default. */
  headingLevel?: 2 | 3 | 4;
  compact?: boolean;
};

/** Shown where a list has nothing in it yet, with the next useful step. */
export function EmptyState({ icon = 'inbox', title, children, actions, headingLevel = 2, compact = false }: EmptyStateProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={compact ? 'state state--compact' : 'state'}>
      <div className="state-icon">
        <Icon name={icon} />
      </div>
      <Heading className="state-title">{title}</Heading>
      {children && <div className="state-text">{children}</div>}
      {actions && <div className="state-actions">{actions}</div>}
    </div>
  );
}
