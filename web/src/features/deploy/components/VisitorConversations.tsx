import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { MarkdownContent } from '../../../ui/MarkdownContent';
import * as deployApi from '../api';

/**
 * The visitors' conversations of a published Spark (read-only): the list, then one conversation as the chat shows
 * it — the visitor's words as they wrote them, the Spark's answers rendered from markdown (sources in italics, links,
 * lists), each labelled for a screen reader.
 */
export function VisitorConversations({ sparkId }: { sparkId: string | undefined }) {
  const { t, i18n } = useTranslation('deploy');
  const [reading, setReading] = useState<string | null>(null);
  const { data: conversations } = useSWR(sparkId ? ['deploy-conversations', sparkId] : null, () =>
    deployApi.fetchVisitorConversations(sparkId!),
  );
  const { data: transcript } = useSWR(sparkId && reading ? ['deploy-conversation', sparkId, reading] : null, () =>
    deployApi.fetchVisitorConversation(sparkId!, reading!),
  );

  return (
    <div className="deploy-panel__block">
      <h2>{t('panel.conversations')}</h2>
      {reading ? (
        <>
          <button type="button" className="deploy-panel__link" onClick={() => setReading(null)}>
            {t('panel.back')}
          </button>
          <div className="deploy-panel__transcript">
            {transcript?.messages
              .filter((m) => m.type !== 'action')
              .map((m) => {
                const visitor = m.type === 'human';
                return (
                  <div key={m._id} className={`chat-msg chat-msg--${visitor ? 'human' : 'assistant'}`}>
                    <span className="visually-hidden">{visitor ? t('panel.visitor') : t('panel.spark')}: </span>
                    {visitor ? (
                      <div className="chat-bubble chat-bubble--human">{m.data.content}</div>
                    ) : (
                      <div className="chat-bubble chat-bubble--assistant">
                        <MarkdownContent content={m.data.content} />
                      </div>
                    )}
                  </div>
                );
              })}
          </div>
        </>
      ) : conversations && conversations.length > 0 ? (
        <ul>
          {conversations.map((c) => (
            <li key={c.conversationId}>
              <button
                type="button"
                className="deploy-panel__link deploy-panel__conversation"
                onClick={() => setReading(c.conversationId)}
              >
                <span className="deploy-panel__question">{c.firstQuestion ?? t('panel.noQuestion')}</span>
                <span className="deploy-panel__hint">
                  {new Date(c.createdAt).toLocaleString(i18n.language)} ·{' '}
                  {/* The live preview above runs on this page's own origin: the owner's own chats, said as such. */}
                  {c.origin === window.location.origin ? t('panel.yourPreview') : (c.origin ?? '')} ·{' '}
                  {t('panel.messages', { count: c.messages })}
                </span>
              </button>
              {c.contactEmail && <span> — {t('panel.contact', { email: c.contactEmail })}</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="deploy-panel__hint">{t('panel.noConversations')}</p>
      )}
    </div>
  );
}
