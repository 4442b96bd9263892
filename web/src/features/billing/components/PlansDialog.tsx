import type { PriceView } from '@sparks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import useSWR from 'swr';

import { isApiError } from '../../../api/client';
import { Dialog } from '../../../ui/Dialog';
import { firstTenant } from '../../account/profile';
import { useProfile } from '../../account/useProfile';
import { PRICES_KEY, fetchPrices, startCheckout } from '../api';
import { formatCount, formatPrice, plansClosable, returnPath, visiblePlans } from '../billing';
import { useGoToCheckout } from '../useGoToCheckout';
import '../billing.css';

/**
 * The plans popup (`?showPlans=true`, the trial-ended popup's "view plans", the upgrade prompt): the plans on sale
 * from GET /prices with their limits, without the one the user holds (docs/product.md §5). Choosing one starts its checkout.
 * With no plan after the trial it cannot be closed (docs/product.md §4: not with Escape, not by clicking outside).
 */
export default function PlansDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const { data: profile } = useProfile();
  const { data: prices, error } = useSWR<PriceView[], Error>(PRICES_KEY, fetchPrices);
  const goToCheckout = useGoToCheckout();
  const location = useLocation();
  const [buying, setBuying] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const closable = plansClosable(profile);
  const customerId = firstTenant(profile)?.customerId;
  const plans = prices ? visiblePlans(prices, profile) : [];

  const choose = async (price: PriceView) => {
    if (!customerId) return;
    setBuying(price.priceId);
    setFailed(null);
    try {
      const { sessionUrl } = await startCheckout(
        customerId,
        'subscription',
        price.priceId,
        returnPath(location.pathname, location.search),
      );
      goToCheckout(sessionUrl);
    } catch (cause) {
      console.error('Failed to start a checkout', cause);
      setFailed(isApiError(cause) && cause.message ? cause.message : t('plans.failed'));
      setBuying(null);
    }
  };

  return (
    <Dialog
      open
      blocking={!closable}
      onClose={onClose}
      size="wide"
      title={t('plans.title')}
      description={closable ? t('plans.lead') : t('plans.leadRequired')}
      actions={
        closable && (
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('plans.close')}
          </button>
        )
      }
    >
      {error && (
        <p className="dialog__error" role="alert">
          {t('plans.loadFailed')}
        </p>
      )}
      {!prices && !error && <p className="dialog__description">{t('loading')}</p>}
      {prices && plans.length === 0 && <p className="dialog__description">{t('plans.none')}</p>}
      {plans.length > 0 && (
        <ul className="billing-cards" aria-label={t('plans.listLabel')}>
          {plans.map((price) => (
            <li key={price.priceId} className="billing-card" data-testid={`plan-${price.slug}`}>
              <span className="billing-card__name">{price.productName}</span>
              <span className="billing-card__price">
                {formatPrice(price.unit_amount, price.currency, locale)} <small>{t('plans.perMonth')}</small>
              </span>
              <ul className="billing-card__features">
                <li>
                  {t('plans.interactions', {
                    count: price.limits.interactions.value,
                    n: formatCount(price.limits.interactions.value, locale),
                  })}
                </li>
                <li>{t('plans.deployments', { count: price.limits.deployments.value })}</li>
                <li>{t('plans.sparks', { count: price.limits.sparks.value })}</li>
                <li>{t('plans.documents', { count: price.limits.documents.value })}</li>
                {price.documentSharing && <li>{t('plans.documentSharing')}</li>}
              </ul>
              <button
                type="button"
                className="button button--primary"
                disabled={buying !== null || !customerId}
                aria-busy={buying === price.priceId || undefined}
                onClick={() => void choose(price)}
              >
                {buying === price.priceId && <span className="spinner spinner--button" aria-hidden="true" />}
                {t('plans.choose', { name: price.productName })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {failed && (
        <p className="dialog__error" role="alert">
          {failed}
        </p>
      )}
    </Dialog>
  );
}
