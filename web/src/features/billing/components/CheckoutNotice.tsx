import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { checkoutResult } from '../billingMessage';
import '../billing.css';

/**
 * The result of a checkout, on the page the user lands on afterwards (the layout shows it above any page): paid, or
 * cancelled — nothing charged —, on the page the checkout was opened from (/billing when opened there). The local provider's page
 * hands the result over in the history state; Stripe's Checkout comes back to `/billing?checkout=success|cancel`.
 */
export function CheckoutNotice() {
  const { t } = useTranslation('billing');
  const location = useLocation();
  const result = checkoutResult(location.state);
  const returned = new URLSearchParams(location.search).get('checkout');
  const notice = result
    ? result.status === 'cancelled'
      ? t('result.cancelled')
      : result.mode === 'subscription'
        ? t('result.planPaid', { name: result.productName })
        : t('result.packPaid', { name: result.productName })
    : returned === 'cancel'
      ? t('result.cancelled')
      : returned === 'success'
        ? t('result.paid')
        : null;
  if (!notice) return null;
  const cancelled = result ? result.status === 'cancelled' : returned === 'cancel';
  return (
    <p
      className={`billing-notice${cancelled ? ' billing-notice--cancelled' : ''}`}
      role="status"
      data-testid="billing-notice"
    >
      {notice}
    </p>
  );
}
