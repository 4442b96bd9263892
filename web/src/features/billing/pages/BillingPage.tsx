import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { SystemChatPage } from '../../chat/components/SystemChatPage';
import { checkoutResult, takeBillingMessage } from '../billingMessage';
import '../billing.css';

/**
 * /billing: the billing assistant's chat and its objectives (`?showPlans=true` is handled by the layout). A page
 * that sends the user here may hand over a message for the assistant (sent once) and a checkout's result.
 */
export default function BillingPage() {
  const { t } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const location = useLocation();
  const [message] = useState(() => takeBillingMessage(location.state));
  const result = checkoutResult(location.state);
  const notice = result
    ? result.status === 'cancelled'
      ? tBilling('result.cancelled')
      : result.mode === 'subscription'
        ? tBilling('result.planPaid', { name: result.productName })
        : tBilling('result.packPaid', { name: result.productName })
    : null;
  return (
    <>
      {notice && (
        <p
          className={`billing-notice${result?.status === 'cancelled' ? ' billing-notice--cancelled' : ''}`}
          role="status"
          data-testid="billing-notice"
        >
          {notice}
        </p>
      )}
      <SystemChatPage
        name="billing"
        title={t('pages.billing.title')}
        objectivesKey="billing"
        {...(message ? { initialText: message } : {})}
      />
    </>
  );
}
