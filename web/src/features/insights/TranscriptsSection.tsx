import type { TranscriptSummary } from '@sparks/contracts';
import { MAX_TRANSCRIPTS_PER_SPARK } from '@sparks/contracts/rules';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { fetchTranscripts, transcriptsKey } from './api';
import { TranscriptReader, VerdictPill, type TranscriptConversation } from './TranscriptReader';

export type { TranscriptConversation };

/** The transcripts of the Spark's judged tests, newest first. */
function useTranscripts(sparkId: string) {
  return useSWR<TranscriptSummary[], Error>(sparkId ? transcriptsKey(sparkId) : null, () => fetchTranscripts(sparkId));
}

/**
 * "Judged tests", in the Spark's review panel (issue 35 item 2): the tests the owner finished with a verdict, each
 * with its name, the verdict, when and how many questions; opening one shows what was said, to read and rate, and to
 * delete. Back from one, the focus returns to it in the list.
 */
export function TranscriptsSection({
  sparkId,
  Conversation,
  onSaid,
}: {
  sparkId: string;
  Conversation: TranscriptConversation;
  /** What was done, for the panel's status line. */
  onSaid: (text: string) => void;
}) {
  const { t, i18n } = useTranslation('sparks');
  const { data, error, mutate } = useTranscripts(sparkId);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [reading, setReading] = useState<string | null>(null);
  /** The transcript the reader came back from: its button takes the focus again. */
  const returnTo = useRef<string | null>(null);
  const open = data?.find((s) => s.conversationId === reading);

  function back() {
    returnTo.current = reading;
    setReading(null);
  }

  async function deleted() {
    setReading(null);
    onSaid(t('transcripts.deleted'));
    await mutate((list) => list?.filter((s) => s.conversationId !== reading), { revalidate: true });
    headingRef.current?.focus();
  }

  return (
    <section className="transcripts" aria-labelledby={headingId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="checks__title">
        {t('transcripts.heading')}
      </h3>
      {open ? (
        <TranscriptReader
          key={open.conversationId}
          sparkId={sparkId}
          summary={open}
          Conversation={Conversation}
          onBack={back}
          onDeleted={() => void deleted()}
        />
      ) : (
        <>
          <p className="objectives-panel__note">{t('transcripts.intro', { max: MAX_TRANSCRIPTS_PER_SPARK })}</p>
          {error && !data ? (
            <p className="objectives-panel__note" role="alert">
              {t('transcripts.loadFailed')}
            </p>
          ) : !data ? (
            <p className="objectives-panel__note">{t('transcripts.loading')}</p>
          ) : data.length === 0 ? (
            <p className="objectives-panel__note">{t('transcripts.none')}</p>
          ) : (
            <ul className="transcripts__list">
              {data.map((s) => (
                <li key={s.conversationId} data-testid="transcript">
                  <button
                    type="button"
                    className="transcript"
                    ref={(button) => {
                      if (button && returnTo.current === s.conversationId) {
                        returnTo.current = null;
                        button.focus();
                      }
                    }}
                    onClick={() => setReading(s.conversationId)}
                  >
                    <span className="transcript__title">{s.title}</span>{' '}
                    <span className="transcript__meta">
                      <VerdictPill verdict={s.verdict} />{' '}
                      {t('transcripts.judged', { date: new Date(s.judgedAt).toLocaleString(i18n.language) })} ·{' '}
                      {t('transcripts.questions', { count: s.questions })}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
