import type { TranscriptView } from '@sparks/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';

import { toLanguage } from '../../../i18n';
import { MarkdownContent } from '../../../ui/MarkdownContent';
import { checksKey, transcriptKey, unansweredKey } from '../../insights/api';
import { keepAnswerAsCheck, rateTestAnswer } from '../api';
import { toDisplayItems } from '../display';
import { AnswerRating, isRateable, type KeepAnswer, type RateAnswer } from './AnswerRating';
import { MessageDate } from './MessageList';
import '../chat.css';

/**
 * A judged test's transcript, read-only (issue 35 item 2), in the Spark's review panel: the conversation as the test
 * chat showed it (its display rules, the start keyword hidden, answers rendered from markdown, dates), each answer
 * with the thumbs of the test chat. A rating down puts the question on the review list, which is read again; a right
 * answer can be kept as a check. The review panel (features/insights) gets it from the Spark's page, as insights
 * cannot import the chat.
 */
export function TranscriptMessages({ sparkId, transcript }: { sparkId: string; transcript: TranscriptView }) {
  const { t, i18n } = useTranslation('chat');
  const { mutate } = useSWRConfig();
  const language = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  const items = useMemo(
    () => toDisplayItems(transcript.messages, new Date(), language),
    [transcript.messages, language],
  );
  const { conversationId } = transcript;

  const rate = useCallback<RateAnswer>(
    async (messageId, body) => {
      const saved = await rateTestAnswer(sparkId, messageId, body);
      await Promise.all([mutate(unansweredKey(sparkId)), mutate(transcriptKey(sparkId, conversationId))]);
      return saved;
    },
    [mutate, sparkId, conversationId],
  );
  const keep = useCallback<KeepAnswer>(
    async (messageId) => {
      await keepAnswerAsCheck(sparkId, messageId);
      await mutate(checksKey(sparkId));
    },
    [mutate, sparkId],
  );

  return (
    <ol className="transcript-messages" aria-label={t('transcript.label')}>
      {items.map((item) => {
        if (item.kind === 'widget') return null;
        const who = item.kind === 'assistant' ? 'assistant' : 'human';
        return (
          <li key={item.key} className={`chat-msg chat-msg--${who} chat-msg--is-${item.kind}`}>
            <span className="visually-hidden">{who === 'human' ? t('message.you') : t('message.assistant')}: </span>
            {item.kind === 'human' && <div className="chat-bubble chat-bubble--human">{item.content}</div>}
            {item.kind === 'upload' && (
              <div className="chat-bubble chat-bubble--upload">
                {t('message.uploaded', { document: item.name || t('message.aDocument') })}
              </div>
            )}
            {item.kind === 'assistant' && (
              <>
                <div className={`chat-bubble chat-bubble--assistant chat-bubble--${item.variant}`}>
                  <MarkdownContent content={item.content} />
                </div>
                {isRateable(item.message) && <AnswerRating message={item.message} onRate={rate} onKeep={keep} />}
              </>
            )}
            {item.showDate && <MessageDate date={item.date} />}
          </li>
        );
      })}
    </ol>
  );
}
