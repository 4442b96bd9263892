import { useTranslation } from 'react-i18next';

import { useQueryFlags } from '../../../lib/useQueryFlags';
import { ChatPageFrame } from '../../chat/components/ChatPageFrame';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { useAfterReply } from '../../chat/hooks/useAfterReply';
import { DeployPanel } from '../components/DeployPanel';
import '../deploy.css';

/**
 * /deploy: the working panel that publishes a Spark (choose it — `?q=` names it —, the channel, the
 * allowed sites, the live preview, publish, verify) above the deploy assistant's chat, with the
 * deploy objectives on the side.
 */
export default function DeployPage() {
  const { t } = useTranslation();
  const { q } = useQueryFlags();
  const afterReply = useAfterReply('deploy');
  const title = t('pages.deploy.title');
  return (
    <ChatPageFrame
      title={<h1 className="chat-page__heading">{title}</h1>}
      objectivesKey="deploy"
      objectivesTitle={title}
    >
      <div className="deploy-page">
        <DeployPanel {...(q ? { q } : {})} />
        <ChatPanel
          key={`deploy:${q ?? ''}`}
          target={{ kind: 'system', name: 'deploy' }}
          autoStart
          {...(q ? { initialText: q } : {})}
          onMessages={afterReply}
          className="chat-page__panel"
        />
      </div>
    </ChatPageFrame>
  );
}
