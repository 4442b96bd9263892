import { useTranslation } from 'react-i18next';

import { ChatPageFrame } from '../../chat/components/ChatPageFrame';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { useAfterReply } from '../../chat/hooks/useAfterReply';

const ONBOARDING = { kind: 'system', name: 'onboarding' } as const;

/** `/spark/onboarding`: the onboarding assistant's chat (name, language, how Sparks work, first Spark). */
export default function SparkOnboardingPage() {
  const { t } = useTranslation();
  const afterReply = useAfterReply(null);
  return (
    <ChatPageFrame title={<h1 className="chat-page__heading">{t('pages.sparkOnboarding.title')}</h1>}>
      <ChatPanel target={ONBOARDING} autoStart onMessages={afterReply} className="chat-page__panel" />
    </ChatPageFrame>
  );
}
