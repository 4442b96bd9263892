import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function NewSparkPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.newSpark.title')} subtitle={t('pages.newSpark.subtitle')} />;
}
