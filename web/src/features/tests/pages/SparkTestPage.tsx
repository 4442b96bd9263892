import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function SparkTestPage() {
  const { t } = useTranslation();
  const { sparkId = '', testId = '' } = useParams();
  return (
    <PlaceholderPage title={t('pages.sparkTest.title')} subtitle={t('pages.sparkTest.subtitle', { sparkId, testId })} />
  );
}
