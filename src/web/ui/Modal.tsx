import * as Dialog from '@radix-ui/react-dialog';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon';
import './modal.css';

export type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** A one-line summary read with the title; omit when the body speaks for itself. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons shown at the bottom right; stacked on phones. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** While true, Escape, outside clicks and the close button do nothing (e.g. a payment is running). */
  dismissible?: boolean;
  /** The × button in the corner; dialogs whose footer has a Cancel button can leave it out. */
  showCloseButton?: boolean;
  /**
   * Where focus goes on close when the opener cannot take it back (gone, or disabled by what the
   * dialog did: an upgrade's 'Upgrade to …' button turns into a disabled 'Not Available').
   */
  fallbackFocus?: () => HTMLElement | null | undefined;
};

/**
 * Openers handed from a dialog that closed to the dialog opened in its place (a confirmation
 * followed by its success dialog): keyed by the dialog element that had focus when the first closed.
 */
const handedOver = new WeakMap<Element, HTMLElement>();

/** A generic dialog on Radix: focus is trapped inside and returns to the opener on close (when it is still there). */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  dismissible = true,
  showCloseButton = true,
  fallbackFocus,
}: ModalProps) {
  const blockWhenBusy = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  // Radix returns focus to its Dialog.Trigger, and these dialogs are opened by the app's own
  // buttons: without this, focus fell to the page's body on every close, and a keyboard or screen
  // reader user started again from the top. The opener is what had focus as the dialog opened
  // (read before Radix moves focus into it).
  const opener = useRef<HTMLElement | null>(null);
  // The dialog element itself, kept after it unmounts (focus is returned after that).
  const dialog = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  }, [open]);
  const returnFocus = (event: Event) => {
    event.preventDefault();
    const own = opener.current;
    opener.current = null;
    // A dialog opened in another's place (a success dialog after its confirmation) was opened by
    // a button of the dialog that is gone: the first dialog's opener is handed to it.
    const inherited = dialog.current ? handedOver.get(dialog.current) : undefined;
    const target = own?.isConnected ? own : inherited?.isConnected ? inherited : null;
    // Only if focus is nowhere: the caller (or a dialog opened in this one's place) may have put it
    // somewhere on purpose, and an opener that is gone cannot take it.
    const active = document.activeElement;
    if (active === null || active === document.body) {
      target?.focus();
      if (document.activeElement !== target || target === null) fallbackFocus?.()?.focus();
      return;
    }
    const next = active.closest('[role="dialog"]');
    if (target && next && next !== dialog.current) handedOver.set(next, target);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || dismissible ? onOpenChange(next) : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content
          ref={(element) => {
            if (element) dialog.current = element;
          }}
          className={`modal modal--${size}`}
          onEscapeKeyDown={blockWhenBusy}
          onPointerDownOutside={blockWhenBusy}
          onInteractOutside={blockWhenBusy}
          onCloseAutoFocus={returnFocus}
          // Without a description Radix would warn; an explicit undefined tells it there is none.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="modal-header">
            <Dialog.Title className="modal-title">{title}</Dialog.Title>
            {dismissible && showCloseButton && (
              <Dialog.Close className="modal-close" aria-label="Close">
                <Icon name="x" size={20} />
              </Dialog.Close>
            )}
          </div>
          {description && (
            <Dialog.Description asChild>
              <div className="modal-description">{description}</div>
            </Dialog.Description>
          )}
          {children !== undefined && <div className="modal-body">{children}</div>}
          {footer && <div className="modal-footer">{footer}</div>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
