import { useTranslation } from 'react-i18next';

import { useQueryFlags } from '../../../lib/useQueryFlags';
import { SystemChatPage } from '../../chat/components/SystemChatPage';

/** /deploy: the deploy assistant's chat; `?q=` (a Spark's name) opens the conversation with that message. */
export default function DeployPage() {
  const { t } = useTranslation();
  const { q } = useQueryFlags();
  return (
    <SystemChatPage
      name="deploy"
      title={t('pages.deploy.title')}
      objectivesKey="deploy"
      {...(q ? { initialText: q } : {})}
    />
  );
}
