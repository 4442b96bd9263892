import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../../ui/PlaceholderPage';

export default function BillingPage() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t('pages.billing.title')} subtitle={t('pages.billing.subtitle')} />;
}
