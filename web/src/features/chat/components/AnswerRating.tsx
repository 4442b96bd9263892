import type { AnswerFeedbackRequest, AnswerFeedbackView, MessageFeedback } from '@sparks/contracts';
import { isRateableAnswerKind, MAX_FEEDBACK_COMMENT_LENGTH } from '@sparks/contracts/rules';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { ChatMessage } from '../types';

/** Rates an answer (the message's id): the saved rating. */
export type RateAnswer = (messageId: string, body: AnswerFeedbackRequest) => Promise<AnswerFeedbackView>;
/** Keeps an answer as one of the Spark's answer checks. */
export type KeepAnswer = (messageId: string) => Promise<unknown>;

/** An answer from the documents (or the "not covered" reply) can be rated; small talk, an error or a welcome cannot. */
export function isRateable(message: ChatMessage): boolean {
  return message.type === 'ai' && isRateableAnswerKind(message.data?.answer) && message.data?.type !== 'error';
}

function Thumb({ down }: { down?: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" className={down ? 'answer-rating__down' : ''}>
      <path
        d="M7 11v9H4v-9h3Zm2 9h8.2a2 2 0 0 0 2-1.6l1.3-6.4A2 2 0 0 0 18.5 9.6H14l.8-3.9A1.6 1.6 0 0 0 13.2 4L9 10.6V20Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * Thumbs up or down under an answer of a test chat (issue 35): a rating down asks, optionally, what was wrong, and
 * puts the question on the owner's review list. A second rating replaces the first.
 */
export function AnswerRating({
  message,
  onRate,
  onKeep,
}: {
  message: ChatMessage;
  onRate: RateAnswer;
  /** Absent, a right answer cannot be kept as a check. */
  onKeep?: KeepAnswer;
}) {
  const { t } = useTranslation('chat');
  const [rated, setRated] = useState<MessageFeedback | null>(message.feedback ?? null);
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState(message.feedback?.comment ?? '');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [kept, setKept] = useState(false);
  const fieldId = useId();
  const hintId = useId();

  async function rate(rating: 'up' | 'down', withComment?: string) {
    setBusy(true);
    try {
      const saved = await onRate(message._id, { rating, ...(withComment ? { comment: withComment } : {}) });
      setRated({ rating: saved.rating, comment: saved.comment });
      setStatus({ text: t(rating === 'up' ? 'rating.thanksUp' : 'rating.thanksDown'), error: false });
      return true;
    } catch (err) {
      setStatus({
        text: t('rating.failed', { message: err instanceof Error ? err.message : String(err) }),
        error: true,
      });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function keep() {
    if (!onKeep) return;
    setBusy(true);
    try {
      await onKeep(message._id);
      setKept(true);
      setStatus({ text: t('rating.kept'), error: false });
    } catch (err) {
      setStatus({
        text: t('rating.failed', { message: err instanceof Error ? err.message : String(err) }),
        error: true,
      });
    } finally {
      setBusy(false);
    }
  }

  async function choose(rating: 'up' | 'down') {
    if (await rate(rating)) setCommenting(rating === 'down');
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    if (await rate('down', comment.trim())) setCommenting(false);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      setCommenting(false);
    }
  }

  return (
    <div className="answer-rating" data-testid="answer-rating">
      <div className="answer-rating__row" role="group" aria-label={t('rating.question')}>
        <span className="answer-rating__question" aria-hidden="true">
          {t('rating.question')}
        </span>
        {(['up', 'down'] as const).map((rating) => (
          <button
            key={rating}
            type="button"
            className="answer-rating__button"
            aria-pressed={rated?.rating === rating}
            aria-label={t(rating === 'up' ? 'rating.up' : 'rating.down')}
            title={t(rating === 'up' ? 'rating.up' : 'rating.down')}
            disabled={busy}
            onClick={() => void choose(rating)}
          >
            <Thumb down={rating === 'down'} />
          </button>
        ))}
        {onKeep && rated?.rating === 'up' && !kept && (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            onClick={() => void keep()}
          >
            {t('rating.keep')}
          </button>
        )}
      </div>
      {commenting && (
        <form className="answer-rating__form" onSubmit={(e) => void send(e)} onKeyDown={onKeyDown}>
          <label htmlFor={fieldId}>{t('rating.commentLabel')}</label>
          <textarea
            id={fieldId}
            rows={2}
            value={comment}
            maxLength={MAX_FEEDBACK_COMMENT_LENGTH}
            aria-describedby={hintId}
            onChange={(e) => setComment(e.target.value)}
            autoFocus
          />
          <p id={hintId} className="answer-rating__hint">
            {t('rating.commentHint')}
          </p>
          <div className="answer-rating__actions">
            <button type="submit" className="button button--primary button--small" disabled={busy}>
              {t('rating.send')}
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              disabled={busy}
              onClick={() => setCommenting(false)}
            >
              {t('rating.skip')}
            </button>
          </div>
        </form>
      )}
      <p
        className={status?.error ? 'answer-rating__status answer-rating__status--error' : 'answer-rating__status'}
        role="status"
      >
        {status?.text ?? ''}
      </p>
    </div>
  );
}
