import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ChatPageFrame } from '../../chat/components/ChatPageFrame';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { useAfterReply } from '../../chat/hooks/useAfterReply';
import { forgetConversation } from '../../chat/storage';

const NEW_SPARK = { kind: 'system', name: 'new-spark' } as const;

/**
 * `/new-spark`: a fresh conversation with the new-spark assistant every time the page opens (the stored
 * one is dropped before the chat reads it). When the Spark is created the Sparks lists refresh and the
 * assistant's "Go to my Spark" button opens it.
 */
export default function NewSparkPage() {
  const { t } = useTranslation();
  const afterReply = useAfterReply(null);
  // Before the chat mounts (its effects read the storage): a lazy state runs during this first render.
  useState(() => forgetConversation(NEW_SPARK));
  return (
    <ChatPageFrame title={<h1 className="chat-page__heading">{t('pages.newSpark.title')}</h1>}>
      <ChatPanel target={NEW_SPARK} autoStart onMessages={afterReply} className="chat-page__panel" />
    </ChatPageFrame>
  );
}
