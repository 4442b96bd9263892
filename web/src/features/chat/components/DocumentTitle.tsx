import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** A document as its upload bubble shows it: what customers read as its source, and whether the owner chose it. */
export interface DocumentTitleInfo {
  /** The file name (the default title is this without its extension). */
  name: string;
  title: string;
  titleSet: boolean;
}

export interface DocumentTitleProps {
  document: DocumentTitleInfo;
  /** Saves the title (null: back to the file name); a rejection keeps the form open with an error. */
  onSave: (title: string | null) => Promise<unknown>;
}

/** The longest title the server accepts (DOCUMENT_TITLE_MAX in @sparks/contracts). */
const TITLE_MAX = 120;

/**
 * Issue 34 item 10: under "You uploaded espiga-en.pdf", the title customers read as the document's source in answers
 * ("espiga-en, page 1"), and a form to change it. Enter or Save saves, Escape or Cancel closes; an empty title gives
 * back the default (the file name without its extension).
 */
export function DocumentTitle({ document, onSave }: DocumentTitleProps) {
  const { t } = useTranslation('chat');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(document.title);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const edit = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  useEffect(() => {
    if (editing) {
      input.current?.focus();
      input.current?.select();
    } else if (refocus.current) {
      refocus.current = false;
      edit.current?.focus();
    }
  }, [editing]);

  function open() {
    setDraft(document.titleSet ? document.title : '');
    setFailed(false);
    setEditing(true);
  }

  function close() {
    refocus.current = true;
    setEditing(false);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const title = draft.trim() || null;
    if (title === (document.titleSet ? document.title : null)) return close();
    setSaving(true);
    setFailed(false);
    try {
      await onSave(title);
      close();
    } catch (error) {
      console.error('Failed to save the document title', error);
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  }

  if (!editing)
    return (
      <span className="chat-bubble__title" data-testid="document-title">
        <span>{t('documentTitle.shown', { title: document.title })}</span>{' '}
        <button
          ref={edit}
          type="button"
          className="link-button"
          aria-label={t('documentTitle.editFor', { name: document.name })}
          onClick={open}
        >
          {t('documentTitle.edit')}
        </button>
      </span>
    );

  return (
    <form className="document-title-form" onSubmit={(event) => void save(event)} onKeyDown={onKeyDown}>
      <label htmlFor={inputId}>{t('documentTitle.label')}</label>
      <input
        ref={input}
        id={inputId}
        className="text-input"
        value={draft}
        maxLength={TITLE_MAX}
        placeholder={document.titleSet ? undefined : document.title}
        aria-describedby={failed ? `${hintId} ${errorId}` : hintId}
        aria-invalid={failed || undefined}
        onChange={(event) => setDraft(event.target.value)}
      />
      <span id={hintId} className="document-title-form__hint">
        {t('documentTitle.hint')}
      </span>
      {failed && (
        <span id={errorId} className="document-title-form__error" role="alert">
          {t('documentTitle.failed')}
        </span>
      )}
      <span className="document-title-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={saving}>
          {t('documentTitle.save')}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={close}>
          {t('documentTitle.cancel')}
        </button>
      </span>
    </form>
  );
}
