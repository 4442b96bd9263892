import { useId, useRef, useState, type FormEvent } from 'react';

import { Dialog } from '../../../ui/Dialog';
import { useTestsT } from '../i18n';

export interface ReportErrorDialogProps {
  open: boolean;
  onClose: () => void;
  /** POST …/error; a rejection keeps the dialog open with an error. */
  onSend: (text: string) => Promise<void>;
}

/** The hidden "report an error" action of the test toolbar: what went wrong, sent with the test. */
export function ReportErrorDialog({ open, onClose, onSend }: ReportErrorDialogProps) {
  const t = useTestsT();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<'required' | 'failed' | null>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const problemId = useId();

  function close() {
    if (busy) return;
    setText('');
    setProblem(null);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const report = text.trim();
    if (!report) {
      setProblem('required');
      fieldRef.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await onSend(report);
      setText('');
    } catch {
      setProblem('failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t('report.title')}
      description={t('report.body')}
      initialFocus={fieldRef}
    >
      <form className="confirm-dialog" onSubmit={(event) => void submit(event)} noValidate>
        <div className="confirm-dialog__field">
          <label htmlFor={fieldId} className="confirm-dialog__label">
            {t('report.label')}
          </label>
          <textarea
            ref={fieldRef}
            id={fieldId}
            className="text-input test-report__field"
            rows={5}
            maxLength={2000}
            value={text}
            required
            aria-invalid={problem === 'required' || undefined}
            aria-describedby={problem ? problemId : undefined}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        {problem && (
          <p id={problemId} className="dialog__error" role="alert">
            {t(problem === 'required' ? 'report.required' : 'report.failed')}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={close} disabled={busy}>
            {t('report.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
            {busy && <span className="spinner spinner--button" aria-hidden="true" />}
            {t('report.send')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
