import type { TranscriptSummary, TranscriptView } from '@sparks/contracts';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { deleteTranscript, fetchTranscript, transcriptKey } from './api';

/**
 * How a transcript's conversation is shown: the chat's messages and its thumbs (features/chat's TranscriptMessages),
 * handed down by the page that hosts the review panel (a feature the chat imports cannot import the chat).
 */
export type TranscriptConversation = ComponentType<{ sparkId: string; transcript: TranscriptView }>;

/** A transcript's verdict as a small pill: went well, or not. */
export function VerdictPill({ verdict }: { verdict: TranscriptSummary['verdict'] }) {
  const { t } = useTranslation('sparks');
  return <span className={`transcript__verdict transcript__verdict--${verdict}`}>{t(`transcripts.${verdict}`)}</span>;
}

/**
 * One judged test's transcript, read-only (issue 35 item 2): its name, verdict and date, the conversation with the
 * thumbs under each answer, a way back to the list and Delete (confirmed). Its heading takes the focus as it opens.
 */
export function TranscriptReader({
  sparkId,
  summary,
  Conversation,
  onBack,
  onDeleted,
}: {
  sparkId: string;
  summary: TranscriptSummary;
  Conversation: TranscriptConversation;
  onBack: () => void;
  onDeleted: () => void;
}) {
  const { t, i18n } = useTranslation('sparks');
  const { data, error } = useSWR<TranscriptView, Error>(transcriptKey(sparkId, summary.conversationId), () =>
    fetchTranscript(sparkId, summary.conversationId),
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  async function remove() {
    setDeleteError(null);
    try {
      await deleteTranscript(sparkId, summary.conversationId);
    } catch (err) {
      setDeleteError(t('transcripts.deleteFailed', { message: err instanceof Error ? err.message : String(err) }));
      throw err;
    }
    setConfirming(false);
    onDeleted();
  }

  return (
    <article className="transcript-reader" aria-labelledby={`transcript-${summary.conversationId}`}>
      <button type="button" className="button button--ghost button--small transcript-reader__back" onClick={onBack}>
        <span aria-hidden="true">← </span>
        {t('transcripts.back')}
      </button>
      <h4
        id={`transcript-${summary.conversationId}`}
        ref={headingRef}
        tabIndex={-1}
        className="transcript-reader__title"
      >
        {summary.title}
      </h4>
      <p className="transcript__meta">
        <VerdictPill verdict={summary.verdict} />{' '}
        {t('transcripts.judged', { date: new Date(summary.judgedAt).toLocaleString(i18n.language) })}
      </p>
      {error && !data ? (
        <p className="objectives-panel__note" role="alert">
          {t('transcripts.readFailed')}
        </p>
      ) : !data ? (
        <p className="objectives-panel__note" role="status">
          {t('transcripts.reading')}
        </p>
      ) : (
        <Conversation sparkId={sparkId} transcript={data} />
      )}
      <div className="unanswered-group__actions">
        <button
          type="button"
          className="button button--ghost unanswered-group__delete"
          onClick={() => {
            setDeleteError(null);
            setConfirming(true);
          }}
        >
          {t('transcripts.delete')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={remove}
        title={t('transcripts.deleteTitle')}
        description={t('transcripts.deleteBody', { title: summary.title })}
        confirmLabel={t('transcripts.deleteConfirm')}
        cancelLabel={t('transcripts.cancel')}
        error={deleteError}
      />
    </article>
  );
}
