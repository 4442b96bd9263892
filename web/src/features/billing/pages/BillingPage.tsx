import { useTranslation } from 'react-i18next';

import { SystemChatPage } from '../../chat/components/SystemChatPage';

/** /billing: the billing assistant's chat and its objectives (`?showPlans=true` is handled by the layout). */
export default function BillingPage() {
  const { t } = useTranslation();
  return <SystemChatPage name="billing" title={t('pages.billing.title')} objectivesKey="billing" />;
}
