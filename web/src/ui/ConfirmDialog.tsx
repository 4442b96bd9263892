import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';

import { Dialog } from './Dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  /** Runs on confirm; the dialog shows a spinner meanwhile. Throw to keep the dialog open (show `error`). */
  onConfirm: () => Promise<void> | void;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The confirm button stays disabled until exactly this text is typed (docs/product.md §5: "Borrar"). */
  requiredText?: string;
  /** The label of the field where `requiredText` is typed. */
  requiredTextLabel?: string;
  /** A failure to show above the buttons. */
  error?: ReactNode;
  tone?: 'default' | 'danger';
}

/** A confirmation dialog, optionally asking the user to type a word before the confirm button enables. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  description,
  confirmLabel,
  cancelLabel,
  requiredText,
  requiredTextLabel,
  error,
  tone = 'danger',
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const inputId = useId();
  const errorId = useId();
  const allowed = requiredText === undefined || typed === requiredText;
  const asksText = requiredText !== undefined;

  // A word to type is what the dialog is for: its field has the focus on every device. (Headless UI leaves the
  // panel itself focused on a touch screen, so that no keyboard opens by surprise; here the keyboard is wanted.)
  useEffect(() => {
    if (!open || !asksText) return;
    const frame = requestAnimationFrame(() => inputRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open, asksText]);

  function close() {
    if (busy) return;
    setTyped('');
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!allowed || busy) return;
    setBusy(true);
    try {
      await onConfirm();
      setTyped('');
    } catch {
      // the caller shows `error`
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      description={description}
      tone={tone}
      initialFocus={requiredText === undefined ? cancelRef : inputRef}
    >
      <form className="confirm-dialog" onSubmit={(event) => void submit(event)} noValidate>
        {requiredText !== undefined && (
          <div className="confirm-dialog__field">
            <label htmlFor={inputId} className="confirm-dialog__label">
              {requiredTextLabel}
            </label>
            <input
              ref={inputRef}
              id={inputId}
              className="text-input"
              value={typed}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
        )}
        {error && (
          <p id={errorId} className="dialog__error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog__actions">
          <button ref={cancelRef} type="button" className="button button--ghost" onClick={close} disabled={busy}>
            {cancelLabel}
          </button>
          <button
            type="submit"
            className={tone === 'danger' ? 'button button--danger' : 'button button--primary'}
            disabled={!allowed || busy}
            aria-busy={busy || undefined}
          >
            {busy && <span className="spinner spinner--button" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
