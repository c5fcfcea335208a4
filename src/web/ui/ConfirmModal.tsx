import type { ReactNode } from 'react';
import { Button } from './Button';
import { Modal } from './Modal';

export type ConfirmModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  onConfirm: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  /** 'danger' for destructive actions such as deleting. */
  tone?: 'primary' | 'danger';
  /** While true the confirm button reads 'Processing...' and the dialog cannot be dismissed. */
  busy?: boolean;
  /** Where focus goes on close when the button that opened the dialog is gone (see Modal). */
  fallbackFocus?: () => HTMLElement | null | undefined;
};

/** Asks before an action with consequences: Cancel and Confirm (docs/rules.md#screens). */
export function ConfirmModal({
  open,
  onOpenChange,
  title,
  children,
  onConfirm,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  tone = 'primary',
  busy = false,
  fallbackFocus,
}: ConfirmModalProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={children}
      size="sm"
      dismissible={!busy}
      fallbackFocus={fallbackFocus}
      // Cancel is the way out (and gets the first focus); Escape still works while not busy.
      showCloseButton={false}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
