import { useTranslation } from 'react-i18next';

import { SystemChatPage } from '../../chat/components/SystemChatPage';

/** /profile: the profile assistant's chat and the profile objectives. */
export default function ProfilePage() {
  const { t } = useTranslation();
  return <SystemChatPage name="profile" title={t('pages.profile.title')} objectivesKey="profile" />;
}
