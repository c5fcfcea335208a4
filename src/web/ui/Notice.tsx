import type { ReactNode } from 'react';
import { Icon } from './Icon';
import type { IconName } from './Icon';

export type NoticeTone = 'info' | 'success' | 'warning' | 'error';

const ICONS: Record<NoticeTone, IconName> = {
  info: 'info',
  success: 'checkCircle',
  warning: 'alertTriangle',
  error: 'alertCircle',
};

type NoticeProps = {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  /** 'status' or 'alert' when the notice appears in answer to an action and must be announced. */
  role?: 'status' | 'alert';
  className?: string;
};

/** An inline message inside the page, for things that must stay visible (unlike a toast). */
export function Notice({ tone = 'info', title, children, role, className }: NoticeProps) {
  return (
    <div className={['notice', `notice--${tone}`, className ?? ''].filter(Boolean).join(' ')} role={role}>
      <Icon name={ICONS[tone]} className="notice-icon" />
      <div className="notice-body">
        {title && <strong className="notice-title">{title}</strong>}
        {children}
      </div>
    </div>
  );
}
