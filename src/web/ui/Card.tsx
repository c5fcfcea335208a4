import type { HTMLAttributes, ReactNode } from 'react';

type CardProps = HTMLAttributes<HTMLElement> & {
  /** 'section' when the card has its own heading and stands as a part of the page. */
  as?: 'div' | 'section' | 'article' | 'li' | 'nav' | 'aside';
  tone?: 'default' | 'flat' | 'muted';
  compact?: boolean;
  children: ReactNode;
};

/** A white surface with a border and a soft shadow. */
export function Card({ as: Element = 'div', tone = 'default', compact = false, className, children, ...rest }: CardProps) {
  const classes = ['card', tone === 'default' ? '' : `card--${tone}`, compact ? 'card--compact' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <Element {...rest} className={classes}>
      {children}
    </Element>
  );
}
