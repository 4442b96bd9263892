import type { SparkTestView } from '@sparks/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';

import { Dialog } from '../../../ui/Dialog';
import { useTestsT } from '../i18n';
import { deleteConfirmed } from '../rules';

export interface DeleteTestDialogProps {
  /** The test to delete; null: closed. */
  test: SparkTestView | null;
  onClose: () => void;
  /** DELETE and what follows; a rejection keeps the dialog open with an error. */
  onDelete: (test: SparkTestView) => Promise<void>;
}

/** docs/product.md §5: deleting a test needs its name typed exactly; the delete button enables only then. */
export function DeleteTestDialog({ test, onClose, onDelete }: DeleteTestDialogProps) {
  const t = useTestsT();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();
  const name = test?.name ?? '';
  const allowed = deleteConfirmed(typed, name);

  function close() {
    if (busy) return;
    setTyped('');
    setFailed(false);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!test || !allowed || busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await onDelete(test);
      setTyped('');
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={test !== null}
      onClose={close}
      title={t('delete.title', { name })}
      description={t('delete.body')}
      tone="danger"
      initialFocus={inputRef}
    >
      <form className="confirm-dialog" onSubmit={(event) => void submit(event)} noValidate>
        <div className="confirm-dialog__field">
          <label htmlFor={inputId} className="confirm-dialog__label">
            {t('delete.typeLabel', { name })}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            className="text-input"
            value={typed}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            aria-describedby={failed ? errorId : undefined}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        {failed && (
          <p id={errorId} className="dialog__error" role="alert">
            {t('delete.failed')}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={close} disabled={busy}>
            {t('delete.cancel')}
          </button>
          <button
            type="submit"
            className="button button--danger"
            disabled={!allowed || busy}
            aria-busy={busy || undefined}
          >
            {busy && <span className="spinner spinner--button" aria-hidden="true" />}
            {t('delete.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
