import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';

import { useQueryFlags } from '../../../lib/useQueryFlags';
import { ChatPageFrame } from '../../chat/components/ChatPageFrame';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { DEPLOY_WELCOME_REFRESH_MS } from '../../chat/display';
import { useAfterReply } from '../../chat/hooks/useAfterReply';
import { DeployPanel } from '../components/DeployPanel';
import '../deploy.css';

/**
 * /deploy: the working panel that publishes a Spark (choose it — `?q=` names it —, the channel, the
 * allowed sites, the live preview, publish, verify) above the deploy assistant's chat, with the
 * deploy objectives on the side. The chat unpublishes or replaces the code too (with a confirmation),
 * and greets afresh when its last message is more than 24 h old (spec §4).
 */
export default function DeployPage() {
  const { t } = useTranslation();
  const { q } = useQueryFlags();
  const { mutate } = useSWRConfig();
  const afterObjectives = useAfterReply('deploy');
  // The assistant may have unpublished a Spark or replaced its code: the panel reads the deployment again.
  const afterReply = useCallback(() => {
    afterObjectives();
    void mutate((key) => Array.isArray(key) && key[0] === 'deployment');
  }, [afterObjectives, mutate]);
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
          freshAfterMs={DEPLOY_WELCOME_REFRESH_MS}
          {...(q ? { initialText: q } : {})}
          onMessages={afterReply}
          className="chat-page__panel"
        />
      </div>
    </ChatPageFrame>
  );
}
