import type { CheckView } from '@sparks/contracts';
import { MAX_OWNER_ANSWER_LENGTH, MAX_OWNER_QUESTION_LENGTH } from '@sparks/contracts/rules';
import { forwardRef, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { MarkdownContent } from '../../ui/MarkdownContent';
import { approveCheck, checksKey, deleteCheck, fetchChecks, keepCheck, runChecks } from './api';

/** The Spark's answer checks; refreshed while a run may be on its way. */
export function useChecks(sparkId: string) {
  return useSWR<CheckView[], Error>(sparkId ? checksKey(sparkId) : null, () => fetchChecks(sparkId), {
    refreshInterval: (checks) => (checks?.some((c) => c.status === 'pending') ? 3000 : 15000),
  });
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

const STATUS = {
  pending: 'checks.statusPending',
  same: 'checks.statusSame',
  changed: 'checks.statusChanged',
} as const;

function Check({ sparkId, check, onDone }: { sparkId: string; check: CheckView; onDone: (text: string) => void }) {
  const { t, i18n } = useTranslation('sparks');
  const { mutate } = useChecks(sparkId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function act(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    setError(null);
    try {
      await action();
      await mutate();
      onDone(done);
    } catch (err) {
      setError(t('checks.failed', { message: message(err) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`check check--${check.status}`} data-testid="check">
      <p className="check__status">{t(STATUS[check.status])}</p>
      <p className="check__question">{check.question}</p>
      <div className="check__answers">
        <div>
          <p className="check__label">{t('checks.approved')}</p>
          <blockquote className="check__answer">
            <MarkdownContent content={check.expected} />
          </blockquote>
        </div>
        {check.status === 'changed' && check.latest && (
          <div>
            <p className="check__label">{t('checks.now')}</p>
            <blockquote className="check__answer check__answer--now">
              <MarkdownContent content={check.latest} />
            </blockquote>
          </div>
        )}
      </div>
      {check.checkedAt && (
        <p className="check__meta">
          {t('checks.checked', { date: new Date(check.checkedAt).toLocaleString(i18n.language) })}
        </p>
      )}
      <div className="unanswered-group__actions">
        {check.status === 'changed' && (
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => void act(() => approveCheck(sparkId, check.id), t('checks.approvedDone'))}
          >
            {t('checks.approve')}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          onClick={() => void act(() => deleteCheck(sparkId, check.id), t('checks.deleted'))}
        >
          {t('checks.delete')}
        </button>
      </div>
      {error && (
        <p role="alert" className="unanswered-group__error">
          {error}
        </p>
      )}
    </li>
  );
}

/** Adds a check by hand: a question and the answer the owner approves. */
function AddCheck({ sparkId, onDone }: { sparkId: string; onDone: (text: string) => void }) {
  const { t } = useTranslation('sparks');
  const { mutate } = useChecks(sparkId);
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const questionId = useId();
  const answerId = useId();

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!question.trim() || !answer.trim()) {
      setError(t('checks.empty'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await keepCheck(sparkId, { question: question.trim(), answer: answer.trim() });
      await mutate();
      setOpen(false);
      setQuestion('');
      setAnswer('');
      onDone(t('checks.saved'));
    } catch (err) {
      setError(t('checks.failed', { message: message(err) }));
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        {t('checks.add')}
      </button>
    );
  }
  return (
    <form className="unanswered-group__form checks__add" onSubmit={(e) => void save(e)}>
      <label htmlFor={questionId}>{t('checks.question')}</label>
      <input
        id={questionId}
        value={question}
        maxLength={MAX_OWNER_QUESTION_LENGTH}
        onChange={(e) => setQuestion(e.target.value)}
        autoFocus
      />
      <label htmlFor={answerId}>{t('checks.answer')}</label>
      <textarea
        id={answerId}
        rows={3}
        value={answer}
        maxLength={MAX_OWNER_ANSWER_LENGTH}
        onChange={(e) => setAnswer(e.target.value)}
      />
      {error && (
        <p role="alert" className="unanswered-group__error">
          {error}
        </p>
      )}
      <div className="unanswered-group__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('checks.save')}
        </button>
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => setOpen(false)}>
          {t('checks.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * The Spark's answer checks (issue 35 item 3), in the review panel: each question with its approved answer and, when
 * the last run answered otherwise, the new answer beside it to approve; a way to add one and to ask them again now.
 */
export const ChecksSection = forwardRef<
  HTMLHeadingElement,
  {
    sparkId: string;
    /** What was done (or went wrong), for the panel's status line. */
    onSaid: (text: string) => void;
  }
>(function ChecksSection({ sparkId, onSaid: setSaid }, headingRef) {
  const { t } = useTranslation('sparks');
  const { data, error, mutate } = useChecks(sparkId);
  const headingId = useId();

  async function runNow() {
    try {
      await runChecks(sparkId);
      setSaid(t('checks.queued'));
      await mutate();
    } catch (err) {
      setSaid(t('checks.failed', { message: message(err) }));
    }
  }

  return (
    <section className="checks" aria-labelledby={headingId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="checks__title">
        {t('checks.heading')}
      </h3>
      <p className="objectives-panel__note">{t('checks.intro')}</p>
      {error && !data ? (
        <p className="objectives-panel__note" role="alert">
          {t('checks.loadFailed')}
        </p>
      ) : !data ? (
        <p className="objectives-panel__note">{t('checks.loading')}</p>
      ) : data.length === 0 ? (
        <p className="objectives-panel__note">{t('checks.none')}</p>
      ) : (
        <ul className="checks__list">
          {data.map((check) => (
            <Check key={`${check.id}:${check.status}`} sparkId={sparkId} check={check} onDone={setSaid} />
          ))}
        </ul>
      )}
      <div className="unanswered-group__actions">
        <AddCheck sparkId={sparkId} onDone={setSaid} />
        {data && data.length > 0 && (
          <button type="button" className="button button--ghost" onClick={() => void runNow()}>
            {t('checks.runNow')}
          </button>
        )}
      </div>
    </section>
  );
});
