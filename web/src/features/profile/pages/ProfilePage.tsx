import { useTranslation } from 'react-i18next';

import { SystemChatPage } from '../../chat/components/SystemChatPage';
import { AccountDataButton } from '../../privacy/AccountDataButton';
import { useProfile } from '../../account/useProfile';

/** /profile: the profile assistant's chat and the profile objectives; "Your data" (export, deletion) in its header. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  return (
    <SystemChatPage
      name="profile"
      title={t('pages.profile.title')}
      objectivesKey="profile"
      actions={<AccountDataButton email={profile?.email} />}
    />
  );
}
