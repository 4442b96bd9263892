import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.forgotPassword.title')} subtitle={t('pages.forgotPassword.subtitle')} />;
}
