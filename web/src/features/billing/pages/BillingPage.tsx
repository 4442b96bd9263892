import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { SystemChatPage } from '../../chat/components/SystemChatPage';
import { takeBillingMessage } from '../billingMessage';
import { OverageSettings } from '../components/OverageSettings';
import { useManageSubscription } from '../useManageSubscription';
import '../billing.css';

/**
 * /billing: the billing assistant's chat and its objectives (`?showPlans=true` is handled by the layout), and for a
 * paid plan the way to manage it (Stripe's Customer Portal, or the plans popup with the embedded test provider) and its
 * overage (extra interactions at the plan's premium rate, under a monthly cap; none on the free plan). A page
 * that sends the user here may hand over a message for the assistant (sent once) and a checkout's result.
 */
export default function BillingPage() {
  const { t } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const location = useLocation();
  const [message] = useState(() => takeBillingMessage(location.state));
  const manage = useManageSubscription();
  const actions = manage.kind ? (
    <div className="billing-manage">
      <div className="billing-manage__buttons">
        <OverageSettings />
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={manage.opening}
          aria-busy={manage.opening || undefined}
          onClick={() => void manage.open()}
        >
          {manage.opening && <span className="spinner spinner--button" aria-hidden="true" />}
          {manage.kind === 'portal' ? tBilling('manage.portal') : tBilling('manage.changePlan')}
        </button>
      </div>
      {manage.failed && (
        <p className="billing-manage__error" role="alert">
          {tBilling('manage.failed')}
        </p>
      )}
    </div>
  ) : null;
  return (
    <SystemChatPage
      actions={actions}
      name="billing"
      title={t('pages.billing.title')}
      objectivesKey="billing"
      {...(message ? { initialText: message } : {})}
    />
  );
}
