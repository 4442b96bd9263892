import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { CheckIcon, PencilIcon } from '../../../ui/icons';

export interface EditableTitleProps {
  /** The saved title. */
  value: string;
  /** Saves a new (trimmed, non-blank, changed) title; a rejection reverts the title. */
  onSave: (title: string) => Promise<unknown>;
  className?: string;
}

/**
 * docs/product.md §4 title editing: click the title (or the pencil) to edit; Enter or the confirm button saves, Escape
 * cancels and restores the old title; a blank title is not saved; a failed rename reverts the title and is
 * logged. Leaving the field without confirming cancels too.
 */
export function EditableTitle({ value, onSave, className }: EditableTitleProps) {
  const { t } = useTranslation('sparks');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  /** The title on screen while a save is out (optimistic), null otherwise. */
  const [pending, setPending] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const errorId = useId();
  const refocus = useRef(false);

  useEffect(() => {
    if (editing) {
      inputRef.current?.focus();
      inputRef.current?.select();
    } else if (refocus.current) {
      refocus.current = false;
      editRef.current?.focus();
    }
  }, [editing]);

  function start() {
    setDraft(pending ?? value);
    setFailed(false);
    setEditing(true);
  }

  function cancel(focusBack = true) {
    refocus.current = focusBack;
    setDraft(value);
    setEditing(false);
  }

  function save() {
    const title = draft.trim();
    refocus.current = true;
    setEditing(false);
    if (!title || title === value) {
      setDraft(value);
      return;
    }
    setPending(title);
    setFailed(false);
    onSave(title)
      .catch((error: unknown) => {
        console.error('Failed to rename the Spark', error);
        setFailed(true);
        setDraft(value);
      })
      .finally(() => setPending(null));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  }

  function onBlur(event: FocusEvent<HTMLInputElement>) {
    if (event.relatedTarget === saveRef.current) return;
    cancel(false);
  }

  const shown = pending ?? value;
  return (
    <div className={['editable-title', className].filter(Boolean).join(' ')}>
      {editing ? (
        <div className="editable-title__editor">
          <input
            ref={inputRef}
            className="editable-title__input"
            aria-label={t('title.input')}
            value={draft}
            maxLength={120}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            onBlur={onBlur}
          />
          <button
            ref={saveRef}
            type="button"
            className="icon-button editable-title__save"
            aria-label={t('title.save')}
            title={t('title.save')}
            onClick={save}
          >
            <CheckIcon size={18} />
          </button>
        </div>
      ) : (
        <div className="editable-title__display">
          {/* Clicking the title edits it too; the pencil is the keyboard's way in. */}
          <h1 className="editable-title__heading" data-testid="spark-title" onClick={start}>
            {shown}
          </h1>
          <button
            ref={editRef}
            type="button"
            className="icon-button editable-title__edit"
            aria-label={t('title.edit')}
            title={t('title.edit')}
            aria-describedby={failed ? errorId : undefined}
            onClick={start}
          >
            <PencilIcon size={16} />
          </button>
        </div>
      )}
      {failed && !editing && (
        <p id={errorId} className="editable-title__error" role="alert">
          {t('title.failed')}
        </p>
      )}
    </div>
  );
}
