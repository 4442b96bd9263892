import type { UnansweredGroupView } from '@sparks/contracts';
import { MAX_OWNER_ANSWER_LENGTH } from '@sparks/contracts/rules';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';

import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { MarkdownContent } from '../../ui/MarkdownContent';
import { documentPath, type DocumentLinkState } from '../documents/paths';
import {
  answerUnanswered,
  checksKey,
  deleteUnansweredAnswer,
  dismissUnanswered,
  fetchUnanswered,
  keepCheck,
  unansweredKey,
} from './api';
import { ChecksSection } from './ChecksSection';
import { TranscriptsSection, type TranscriptConversation } from './TranscriptsSection';
import './insights.css';

type Done = 'saved' | 'deleted' | 'dismissed' | 'kept';

const DONE_TEXT = {
  saved: 'unanswered.saved',
  deleted: 'unanswered.deleted',
  dismissed: 'unanswered.dismissed',
  kept: 'unanswered.keptCheck',
} as const;

/** The open groups of a Spark's unanswered questions, for the header button's count. */
export function useUnanswered(sparkId: string) {
  return useSWR<UnansweredGroupView[], Error>(sparkId ? unansweredKey(sparkId) : null, () => fetchUnanswered(sparkId), {
    refreshInterval: 15000,
  });
}

function Group({
  sparkId,
  group,
  onSaved,
}: {
  sparkId: string;
  group: UnansweredGroupView;
  /** Done: the groups as the server answered them (none when they did not change). */
  onSaved: (groups: UnansweredGroupView[] | null, done: Done) => void;
}) {
  const { t, i18n } = useTranslation('sparks');
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(group.answer ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const fieldId = useId();
  const { mutate } = useSWRConfig();
  const others = group.variants.filter((v) => v !== group.question);
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  // Where the answer came from, each passage once: a link to the page of the document it is on.
  const sources = group.sources.filter(
    (s, i, all) => all.findIndex((o) => o.documentId === s.documentId && o.page === s.page) === i,
  );
  const sourcesId = useId();

  /** The owner's answer becomes a check: asked again whenever the Spark's knowledge changes. */
  async function keep() {
    if (!group.answer) return;
    setBusy(true);
    setError(null);
    try {
      await keepCheck(sparkId, { question: group.question, answer: group.answer, origin: 'fix' });
      await mutate(checksKey(sparkId));
      onSaved(null, 'kept');
    } catch (err) {
      setError(t('checks.failed', { message: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(false);
    }
  }

  async function dismiss() {
    setBusy(true);
    setError(null);
    try {
      const result = await dismissUnanswered(sparkId, group.id);
      onSaved(result.groups, 'dismissed');
    } catch (err) {
      setError(t('unanswered.dismissFailed', { message: err instanceof Error ? err.message : String(err) }));
      setBusy(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setError(t('unanswered.empty'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await answerUnanswered(sparkId, group.id, { answer: text.trim() });
      setEditing(false);
      onSaved(result.groups, 'saved');
    } catch (err) {
      setError(t('unanswered.failed', { message: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setDeleteError(null);
    try {
      const result = await deleteUnansweredAnswer(sparkId, group.id);
      setConfirming(false);
      onSaved(result.groups, 'deleted');
    } catch (err) {
      setDeleteError(t('unanswered.deleteFailed', { message: err instanceof Error ? err.message : String(err) }));
      throw err;
    }
  }

  return (
    <li
      className={`unanswered-group unanswered-group--${group.status} unanswered-group--${group.reason}`}
      data-testid="unanswered-group"
    >
      <p className="unanswered-group__reason">
        {t(group.reason === 'ratedDown' ? 'unanswered.reasonRatedDown' : 'unanswered.reasonNotCovered')}
      </p>
      <p className="unanswered-group__question">{group.question}</p>
      <p className="unanswered-group__meta">
        {t('unanswered.asked', { count: group.count })} · {t('unanswered.last', { date: date(group.lastAskedAt) })}
        {group.status === 'answered' && <span className="unanswered-group__badge"> · {t('unanswered.answered')}</span>}
      </p>
      {others.length > 0 && (
        <p className="unanswered-group__variants">{t('unanswered.alsoAsked', { questions: others.join(' · ') })}</p>
      )}
      {group.answerGiven && group.status === 'open' && (
        <div className="unanswered-group__said">
          <p className="unanswered-group__said-label">{t('unanswered.said')}</p>
          <blockquote className="unanswered-group__said-text">
            <MarkdownContent content={group.answerGiven} />
          </blockquote>
          {sources.length > 0 && (
            <div className="unanswered-group__sources">
              <span id={sourcesId}>{t('unanswered.sources')}</span>
              <ul aria-labelledby={sourcesId}>
                {sources.map((s) => (
                  <li key={`${s.documentId}:${s.page}`}>
                    <Link
                      to={documentPath(sparkId, s.documentId, s.page)}
                      state={{ from: 'review' } satisfies DocumentLinkState}
                    >
                      {t('unanswered.sourcePage', { document: s.document, page: s.page })}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
      {group.ratedBy && group.ratedAt && (
        <p className="unanswered-group__rated">
          {t(group.ratedBy === 'owner' ? 'unanswered.ratedByOwner' : 'unanswered.ratedByVisitor', {
            date: date(group.ratedAt),
          })}
          {group.comment && (
            <>
              <br />
              <span className="unanswered-group__comment">{t('unanswered.comment', { comment: group.comment })}</span>
            </>
          )}
        </p>
      )}
      {group.answer && !editing && (
        <blockquote className="unanswered-group__answer">
          <span className="visually-hidden">{t('unanswered.yourAnswer')}: </span>
          {group.answer}
        </blockquote>
      )}
      {editing ? (
        <form className="unanswered-group__form" onSubmit={(e) => void save(e)}>
          <label htmlFor={fieldId}>{t('unanswered.yourAnswer')}</label>
          <textarea
            id={fieldId}
            value={text}
            rows={4}
            maxLength={MAX_OWNER_ANSWER_LENGTH}
            onChange={(e) => setText(e.target.value)}
            autoFocus
          />
          <p className="unanswered-group__hint">{t('unanswered.hint')}</p>
          <div className="unanswered-group__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {t('unanswered.save')}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setEditing(false)}
              disabled={busy}
            >
              {t('unanswered.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="unanswered-group__actions">
          <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
            {group.answer ? t('unanswered.change') : t('unanswered.answer')}
          </button>
          {group.status === 'open' && (
            <button type="button" className="button button--ghost" onClick={() => void dismiss()} disabled={busy}>
              {t('unanswered.dismiss')}
            </button>
          )}
          {group.answer && (
            <button type="button" className="button button--ghost" onClick={() => void keep()} disabled={busy}>
              {t('unanswered.keepCheck')}
            </button>
          )}
          {group.answer && (
            <button
              type="button"
              className="button button--ghost unanswered-group__delete"
              onClick={() => {
                setDeleteError(null);
                setConfirming(true);
              }}
            >
              {t('unanswered.delete')}
            </button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="unanswered-group__error">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={remove}
        title={t('unanswered.deleteTitle')}
        description={t('unanswered.deleteBody', { question: group.question })}
        confirmLabel={t('unanswered.deleteConfirm')}
        cancelLabel={t('unanswered.cancel')}
        error={deleteError}
      />
    </li>
  );
}

export interface UnansweredPanelProps {
  id: string;
  sparkId: string;
  /** For the link to the visitors' conversations on /deploy (`?q=` names the Spark). */
  sparkName: string;
  open: boolean;
  /** Opened to show the checks (the chat's "Review the checks"): their heading takes the focus. */
  focus?: 'checks';
  /** How a judged test's transcript shows its conversation (the chat's messages and thumbs, from the hosting page). */
  transcriptConversation: TranscriptConversation;
  onClose: () => void;
}

/**
 * The owner's review list: the questions the Spark could not answer and the answers rated wrong (tests and the
 * website widget), similar ones together with how often and when last asked, what the Spark said and where it came
 * from (each source a link to its page of the document), who rated it and their comment; the owner answers one in their own words and the answer becomes knowledge of
 * the Spark, cited as added by them (issue 17 item 5, issue 35), or dismisses it. Below: the judged tests' transcripts
 * and the answer checks.
 */
export function UnansweredPanel({
  id,
  sparkId,
  sparkName,
  open,
  focus,
  transcriptConversation,
  onClose,
}: UnansweredPanelProps) {
  const { t } = useTranslation('sparks');
  const { data, error, mutate } = useUnanswered(sparkId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const checksRef = useRef<HTMLHeadingElement>(null);
  const [saved, setSaved] = useState<Done | null>(null);
  /** What the judged tests or the checks below said last (they share the panel's one status line). */
  const [sectionSaid, setSectionSaid] = useState<string | null>(null);

  useEffect(() => {
    if (open && focus === 'checks') checksRef.current?.focus();
    else if (open) headingRef.current?.focus({ preventScroll: true });
    else {
      setSaved(null);
      setSectionSaid(null);
    }
  }, [open, focus]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    // A confirmation dialog opened from the panel is portaled out of it: its Escape closes only the dialog.
    if (event.key === 'Escape' && event.currentTarget.contains(event.target as Node)) {
      event.stopPropagation();
      onClose();
    }
  }

  return (
    <aside
      id={id}
      className={['objectives-panel', 'unanswered-panel', open && 'objectives-panel--open'].filter(Boolean).join(' ')}
      aria-labelledby={`${id}-heading`}
      inert={!open}
      onKeyDown={onKeyDown}
    >
      <div className="objectives-panel__header">
        <p className="objectives-panel__label">{t('unanswered.label')}</p>
        <button
          type="button"
          className="icon-button"
          aria-label={t('unanswered.close')}
          title={t('unanswered.close')}
          onClick={onClose}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 6l12 12M18 6 6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="unanswered-panel__title">
        {t('unanswered.heading')}
      </h2>
      <p className="objectives-panel__note">{t('unanswered.intro')}</p>
      {(saved || sectionSaid) && (
        <p role="status" className="unanswered-panel__saved">
          {sectionSaid ?? (saved ? t(DONE_TEXT[saved]) : '')}
        </p>
      )}
      {error && !data ? (
        <p className="objectives-panel__note" role="alert">
          {t('unanswered.loadFailed')}
        </p>
      ) : !data ? (
        <p className="objectives-panel__note" role="status">
          {t('unanswered.loading')}
        </p>
      ) : data.length === 0 ? (
        <p className="objectives-panel__note">{t('unanswered.none')}</p>
      ) : (
        <ul className="unanswered-panel__groups">
          {data.map((group) => (
            <Group
              key={`${group.id}:${group.answeredAt ?? ''}`}
              sparkId={sparkId}
              group={group}
              onSaved={(groups, done) => {
                setSectionSaid(null);
                setSaved(done);
                if (groups) void mutate(groups, { revalidate: false });
              }}
            />
          ))}
        </ul>
      )}
      <TranscriptsSection sparkId={sparkId} Conversation={transcriptConversation} onSaid={setSectionSaid} />
      <ChecksSection ref={checksRef} sparkId={sparkId} onSaid={setSectionSaid} />
      <Link className="unanswered-panel__visitors" to={`/deploy?q=${encodeURIComponent(sparkName)}`}>
        {t('unanswered.visitors')}
      </Link>
    </aside>
  );
}
