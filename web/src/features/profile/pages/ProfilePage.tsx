import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function ProfilePage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.profile.title')} subtitle={t('pages.profile.subtitle')} />;
}
