import type { ReactNode } from 'react';

type PageHeaderProps = {
  /** The page's one h1. */
  title: ReactNode;
  description?: ReactNode;
  /** Primary actions shown at the right (below on phones). */
  actions?: ReactNode;
};

export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p className="page-header-description">{description}</p>}
      </div>
      {actions && <div className="button-row">{actions}</div>}
    </div>
  );
}
