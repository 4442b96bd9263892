import { Description, Dialog as HeadlessDialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode, RefObject } from 'react';

import './ui.css';

export interface DialogProps {
  open: boolean;
  /** Escape, a click outside or a close button; ignored when `blocking`. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The buttons at the bottom, right-aligned. */
  actions?: ReactNode;
  /** A dialog the user cannot dismiss (Escape and outside clicks do nothing): an alertdialog. */
  blocking?: boolean;
  /** The element focused on opening (default: the first focusable one). */
  initialFocus?: RefObject<HTMLElement | null>;
  tone?: 'default' | 'danger';
  /** `wide` for dialogs holding a row of cards (plans, credit packs). */
  size?: 'default' | 'wide';
}

/**
 * The app's modal dialog on Headless UI: labelled by its title and described by its description, focus kept
 * inside while open and given back to the opener on close, Escape and outside clicks close it (unless blocking).
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  actions,
  blocking = false,
  initialFocus,
  tone = 'default',
  size = 'default',
}: DialogProps) {
  return (
    <HeadlessDialog
      open={open}
      onClose={() => {
        if (!blocking) onClose();
      }}
      role={blocking ? 'alertdialog' : 'dialog'}
      className="dialog"
      {...(initialFocus ? { initialFocus } : {})}
    >
      <DialogBackdrop className="dialog__backdrop" />
      <div className="dialog__frame">
        <DialogPanel className={`dialog__panel dialog__panel--${tone}${size === 'wide' ? ' dialog__panel--wide' : ''}`}>
          <DialogTitle className="dialog__title">{title}</DialogTitle>
          {description && <Description className="dialog__description">{description}</Description>}
          {children}
          {actions && <div className="dialog__actions">{actions}</div>}
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}
