import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';

export interface DialogAction {
  label: string;
  onClick: () => void;
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  /** Takes the focus when the dialog opens. */
  autoFocus?: boolean;
  disabled?: boolean;
}

export interface ChatDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  actions: DialogAction[];
  /** An alert (errors, confirmations) is announced at once. */
  alert?: boolean;
  icon?: ReactNode;
}

/**
 * The chat's dialogs (@headlessui/react): modal, focus kept inside and given back on close, Escape and a
 * click outside close it, title and text are the dialog's name and description.
 */
export function ChatDialog({ open, onClose, title, children, actions, alert, icon }: ChatDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} className="chat-dialog" role={alert ? 'alertdialog' : 'dialog'}>
      <div className="chat-dialog__backdrop" aria-hidden="true" />
      <div className="chat-dialog__frame">
        <DialogPanel className="chat-dialog__panel">
          {icon && <div className="chat-dialog__icon">{icon}</div>}
          <DialogTitle className="chat-dialog__title">{title}</DialogTitle>
          {children && <Description className="chat-dialog__text">{children}</Description>}
          <div className="chat-dialog__actions">
            {actions.map((action) => (
              <button
                key={action.label}
                type="button"
                className={`button button--${action.variant ?? 'primary'}`}
                onClick={action.onClick}
                autoFocus={action.autoFocus}
                disabled={action.disabled}
              >
                {action.label}
              </button>
            ))}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
