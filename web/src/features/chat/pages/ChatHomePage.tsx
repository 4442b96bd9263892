import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function ChatHomePage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.chatHome.title')} subtitle={t('pages.chatHome.subtitle')} />;
}
