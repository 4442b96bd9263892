import { useTranslation } from 'react-i18next';

import { SystemChatPage } from '../../chat/components/SystemChatPage';
import { AccountDataButton } from '../../privacy/AccountDataButton';

/** /profile: the profile assistant's chat and the profile objectives; "Your data" (the export) in its header. */
export default function ProfilePage() {
  const { t } = useTranslation();
  return (
    <SystemChatPage
      name="profile"
      title={t('pages.profile.title')}
      objectivesKey="profile"
      actions={<AccountDataButton />}
    />
  );
}
