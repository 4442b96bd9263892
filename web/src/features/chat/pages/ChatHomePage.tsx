import { useTranslation } from 'react-i18next';

import { ChatPanel } from '../components/ChatPanel';
import { WelcomeBubble } from '../components/WelcomeBubble';
import { useAfterReply } from '../hooks/useAfterReply';

const MAIN = { kind: 'system', name: 'main' } as const;

/** `/`: the welcome bubble above the main assistant's chat, started with 'inicio' the first time. */
export default function ChatHomePage() {
  const { t } = useTranslation();
  const afterReply = useAfterReply(null);
  return (
    <section className="chat-page chat-home">
      <h1 className="visually-hidden">{t('pages.chatHome.title')}</h1>
      <ChatPanel
        target={MAIN}
        autoStart
        welcome={<WelcomeBubble />}
        onMessages={afterReply}
        className="chat-page__panel"
      />
    </section>
  );
}
