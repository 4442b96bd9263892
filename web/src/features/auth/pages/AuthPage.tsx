import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function AuthPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.auth.title')} subtitle={t('pages.auth.subtitle')} />;
}
