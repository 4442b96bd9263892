import type { CreditItemView } from '@sparks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import useSWR, { mutate } from 'swr';

import { isApiError } from '../../../api/client';
import { useNavigate } from '../../../lib/router';
import { Dialog } from '../../../ui/Dialog';
import { PROFILE_KEY } from '../../account/useProfile';
import { CREDITS_KEY, fetchCreditCatalog, purchaseCredits } from '../api';
import { canBuyPack, formatCount, formatPrice, localName, pageCount, pageOf, returnPath, sortPacks } from '../billing';
import { billingState } from '../billingMessage';
import { useGoToCheckout } from '../useGoToCheckout';
import { useHeldSubscription } from '../useManageSubscription';
import '../billing.css';

/**
 * The credit-pack popup (docs/product.md §2, §4, §5): the packs of GET /billing/catalog/credits sorted by interactions, 4 a
 * page, a pager only when there is more than one page, each price unit_amount / 100 in the user's locale. Buying
 * shows a spinner on that pack and disables every button; a pack paid at once (a paid plan) goes to /billing with
 * the congratulation message for the billing assistant, otherwise to the pack's checkout. When the pack is charged at
 * once to the plan's card (a paid plan with the local provider), the user first confirms it with its amount; a
 * checkout page (the Free Plan, or Stripe) shows the amount itself.
 */
export default function CreditPacksDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const navigate = useNavigate();
  const goToCheckout = useGoToCheckout();
  const location = useLocation();
  const { data, error } = useSWR<CreditItemView[], Error>(CREDITS_KEY, fetchCreditCatalog);
  const [page, setPage] = useState(0);
  const [buying, setBuying] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<CreditItemView | null>(null);
  const { plan, subscriptions } = useHeldSubscription();
  // Charged at once to the plan's card (the local provider); Stripe's Checkout page shows the amount itself.
  const chargedAtOnce = plan !== null && subscriptions?.[0]?.provider !== 'stripe';
  const packs = data ? sortPacks(data) : [];
  const pages = pageCount(packs.length);
  const current = Math.min(page, pages - 1);

  const buy = async (pack: CreditItemView) => {
    setConfirming(null);
    setBuying(pack.productId);
    setFailed(null);
    const name = localName(pack, locale);
    try {
      const result = await purchaseCredits(pack.productId, returnPath(location.pathname, location.search));
      if (result.success && result.status === 'paid') {
        await mutate(PROFILE_KEY);
        onClose();
        void navigate('/billing', {
          state: billingState(t('congratulation', { pack: name, count: pack.limits.interactions.value }), {
            status: 'paid',
            mode: 'payment',
            productName: name,
          }),
        });
        return;
      }
      if (result.sessionUrl) {
        onClose();
        goToCheckout(result.sessionUrl);
        return;
      }
      setBuying(null);
    } catch (cause) {
      console.error('Failed to buy a credit pack', cause);
      setFailed(isApiError(cause) && cause.message ? cause.message : t('credits.failed'));
      setBuying(null);
    }
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (buying === null) onClose();
      }}
      size="wide"
      title={t('credits.title')}
      description={t('credits.lead')}
      actions={
        <button type="button" className="button button--ghost" disabled={buying !== null} onClick={onClose}>
          {t('credits.close')}
        </button>
      }
    >
      {error && (
        <p className="dialog__error" role="alert">
          {t('credits.loadFailed')}
        </p>
      )}
      {!data && !error && <p className="dialog__description">{t('loading')}</p>}
      {data && packs.length === 0 && <p className="dialog__description">{t('credits.none')}</p>}
      {confirming && (
        <div className="billing-confirm" role="group" aria-labelledby="credit-pack-confirm">
          <p id="credit-pack-confirm" className="dialog__description">
            {t('credits.confirm', {
              name: localName(confirming, locale),
              price: formatPrice(confirming.unit_amount, confirming.currency, locale),
              plan,
            })}
          </p>
          <div className="dialog__actions">
            <button type="button" className="button button--ghost" onClick={() => setConfirming(null)}>
              {t('credits.back')}
            </button>
            <button type="button" className="button button--primary" autoFocus onClick={() => void buy(confirming)}>
              {t('credits.pay', { price: formatPrice(confirming.unit_amount, confirming.currency, locale) })}
            </button>
          </div>
        </div>
      )}
      {!confirming && packs.length > 0 && (
        <ul className="billing-cards" aria-label={t('credits.listLabel')}>
          {pageOf(packs, current).map((pack) => (
            <li key={pack.productId} className="billing-card" data-testid="credit-pack">
              <span className="billing-card__name">{localName(pack, locale)}</span>
              <span className="billing-card__detail">
                {t('credits.interactions', {
                  count: pack.limits.interactions.value,
                  n: formatCount(pack.limits.interactions.value, locale),
                })}
              </span>
              <span className="billing-card__price">{formatPrice(pack.unit_amount, pack.currency, locale)}</span>
              <button
                type="button"
                className="button button--primary"
                disabled={buying !== null || !canBuyPack(pack)}
                aria-busy={buying === pack.productId || undefined}
                onClick={() => (chargedAtOnce ? setConfirming(pack) : void buy(pack))}
              >
                {buying === pack.productId && (
                  <span className="spinner spinner--button" data-testid="pack-spinner" aria-hidden="true" />
                )}
                {t('credits.buy', { name: localName(pack, locale) })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {!confirming && pages > 1 && (
        <nav className="billing-pager" aria-label={t('credits.pager')}>
          <button
            type="button"
            className="button button--ghost"
            disabled={current === 0 || buying !== null}
            onClick={() => setPage(current - 1)}
          >
            {t('credits.previous')}
          </button>
          <span>{t('credits.page', { page: current + 1, pages })}</span>
          <button
            type="button"
            className="button button--ghost"
            disabled={current >= pages - 1 || buying !== null}
            onClick={() => setPage(current + 1)}
          >
            {t('credits.next')}
          </button>
        </nav>
      )}
      {failed && (
        <p className="dialog__error" role="alert">
          {failed}
        </p>
      )}
    </Dialog>
  );
}
