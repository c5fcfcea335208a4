import * as Toast from '@radix-ui/react-toast';
import { Icon } from './Icon';
import type { IconName } from './Icon';
import type { ToastItem, ToastType } from './toast';
import './toast.css';

const ICONS: Record<ToastType, IconName> = {
  success: 'checkCircle',
  error: 'alertCircle',
  warning: 'alertTriangle',
  info: 'info',
};

// Said before the message to screen-reader users, who do not see the colour or the icon.
const SPOKEN_TYPE: Record<ToastType, string> = {
  success: 'Success:',
  error: 'Error:',
  warning: 'Warning:',
  info: 'Note:',
};

/** Time to let the exit animation play before the toast leaves the queue. */
const EXIT_MS = 200;

type Props = {
  toasts: ToastItem[];
  durationMs: number;
  onRemove: (id: number) => void;
};

export default function ToastViewport({ toasts, durationMs, onRemove }: Props) {
  return (
    <Toast.Provider duration={durationMs} swipeDirection="right" label="Notification">
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={`toast toast--${toast.type}`}
          // Errors and warnings interrupt the screen reader; the others wait their turn.
          type={toast.type === 'error' || toast.type === 'warning' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) window.setTimeout(() => onRemove(toast.id), EXIT_MS);
          }}
        >
          <Icon name={ICONS[toast.type]} className="toast-icon" size={20} />
          <Toast.Description className="toast-message">
            <span className="visually-hidden">{SPOKEN_TYPE[toast.type]} </span>
            {toast.message}
          </Toast.Description>
          <Toast.Close className="toast-close" aria-label="Dismiss notification">
            <Icon name="x" size={16} />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" label="Notifications ({hotkey})" />
    </Toast.Provider>
  );
}
