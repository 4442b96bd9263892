import { useTranslation } from 'react-i18next';

import { SystemChatPage } from '../../chat/components/SystemChatPage';
import { AccountDataButton } from '../../privacy/AccountDataButton';
import { useProfile } from '../../account/useProfile';
import { DigestSettings } from '../DigestSettings';

/**
 * /profile: the profile assistant's chat and the profile objectives; in its header the weekly e-mail (on or off, and the
 * time zone) and "Your data" (export, deletion).
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  return (
    <SystemChatPage
      name="profile"
      title={t('pages.profile.title')}
      objectivesKey="profile"
      actions={
        <>
          <DigestSettings />
          <AccountDataButton email={profile?.email} />
        </>
      }
    />
  );
}
