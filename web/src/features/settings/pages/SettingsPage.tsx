import { useTranslation } from 'react-i18next';

import { SystemChatPage } from '../../chat/components/SystemChatPage';

/** /settings: the settings assistant's chat (the page has no objectives). */
export default function SettingsPage() {
  const { t } = useTranslation();
  return <SystemChatPage name="settings" title={t('pages.settings.title')} />;
}
