import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function MobileTestPage() {
  const { t } = useTranslation();
  const { sparkId = '', testId = '' } = useParams();
  return (
    <PlaceholderPage
      title={t('pages.mobileTest.title')}
      subtitle={t('pages.mobileTest.subtitle', { sparkId, testId })}
    />
  );
}
