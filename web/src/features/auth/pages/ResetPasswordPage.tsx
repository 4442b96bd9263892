import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.resetPassword.title')} subtitle={t('pages.resetPassword.subtitle')} />;
}
