import { useId } from 'react';
import type { ReactNode } from 'react';
import { Card } from './Card';

type PanelProps = {
  title: ReactNode;
  /** Heading level that fits the page outline; h2 by default. */
  headingLevel?: 2 | 3;
  /** Shown at the right of the title, e.g. a 'View all' link. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** A titled card: a labelled region of a page such as 'Recent activity'. */
export function Panel({ title, headingLevel = 2, actions, className, children }: PanelProps) {
  const headingId = useId();
  const Heading = `h${headingLevel}` as const;
  return (
    <Card as="section" aria-labelledby={headingId} className={className}>
      <div className="panel-header">
        <Heading id={headingId}>{title}</Heading>
        {actions}
      </div>
      {children}
    </Card>
  );
}
