import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function SettingsPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.settings.title')} subtitle={t('pages.settings.subtitle')} />;
}
