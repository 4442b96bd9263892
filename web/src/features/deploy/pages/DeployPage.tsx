import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function DeployPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.deploy.title')} subtitle={t('pages.deploy.subtitle')} />;
}
