import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function SparkOnboardingPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.sparkOnboarding.title')} subtitle={t('pages.sparkOnboarding.subtitle')} />;
}
