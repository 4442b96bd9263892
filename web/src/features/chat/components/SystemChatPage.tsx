import type { ReactNode } from 'react';

import { useAfterReply } from '../hooks/useAfterReply';
import { ChatPageFrame } from './ChatPageFrame';
import { ChatPanel, type ChatTarget } from './ChatPanel';

type SystemName = Extract<ChatTarget, { kind: 'system' }>['name'];

export interface SystemChatPageProps {
  name: Extract<SystemName, 'settings' | 'billing' | 'deploy' | 'profile'>;
  /** The page's name, shown as its heading and in the objectives panel. */
  title: string;
  /** The page's objectives (deploy, profile, billing); settings has none. */
  objectivesKey?: 'deploy' | 'profile' | 'billing';
  /** The first message of the conversation (deploy's `q`). */
  initialText?: string;
  /** At the end of the header (billing: manage the subscription). */
  actions?: ReactNode;
}

/** The pages of the system assistants: a header with the page name, the assistant's chat, the objectives. */
export function SystemChatPage({ name, title, objectivesKey, initialText, actions }: SystemChatPageProps) {
  const afterReply = useAfterReply(objectivesKey ?? null);
  return (
    <ChatPageFrame
      title={<h1 className="chat-page__heading">{title}</h1>}
      objectivesKey={objectivesKey}
      objectivesTitle={title}
      actions={actions}
    >
      <ChatPanel
        key={`${name}:${initialText ?? ''}`}
        target={{ kind: 'system', name }}
        autoStart
        {...(initialText ? { initialText } : {})}
        onMessages={afterReply}
        className="chat-page__panel"
      />
    </ChatPageFrame>
  );
}
