import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function ValidateCodePage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.validateCode.title')} subtitle={t('pages.validateCode.subtitle')} />;
}
