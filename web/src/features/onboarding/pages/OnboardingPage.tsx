import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function OnboardingPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.onboarding.title')} subtitle={t('pages.onboarding.subtitle')} />;
}
