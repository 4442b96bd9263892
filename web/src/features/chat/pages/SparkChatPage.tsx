import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function SparkChatPage() {
  const { t } = useTranslation();
  const { sparkId = '' } = useParams();
  return <PlaceholderPage title={t('pages.sparkChat.title')} subtitle={t('pages.sparkChat.subtitle', { sparkId })} />;
}
