import type { CheckoutSessionView } from '@sparks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import useSWR, { mutate } from 'swr';

import { isApiError } from '../../../api/client';
import { useNavigate } from '../../../lib/router';
import { PageLoading } from '../../../ui/PageLoading';
import { PROFILE_KEY } from '../../account/useProfile';
import { cancelCheckout, checkoutKey, fetchCheckout, payCheckout } from '../api';
import { formatCount, formatPrice, localName, safeReturnTo } from '../billing';
import { billingState, type CheckoutResult } from '../billingMessage';
import '../billing.css';

/**
 * `/checkout/<id>`: the local payment provider's checkout (the `sessionUrl` of a checkout when no Stripe key is
 * set). It says plainly that it is a test payment, shows what is bought and its price and asks for no card data;
 * Pay runs the server's fulfilment (the same as a provider's webhook), Cancel closes the session (nothing is charged);
 * either goes back to the page the checkout was opened from (an upgrade prompt's page: the owner goes on where they
 * were) and shows the result there, or to /billing when it was opened there (or the page is not known).
 */
export default function CheckoutPage() {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const { sessionId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  // Where the user opened the checkout from: paying or cancelling goes back there.
  const [returnTo] = useState(() => safeReturnTo(location.state));
  const { data: session, error } = useSWR<CheckoutSessionView, Error>(checkoutKey(sessionId), () =>
    fetchCheckout(sessionId),
  );
  const [busy, setBusy] = useState<'pay' | 'cancel' | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  if (error)
    return (
      <section className="checkout" aria-labelledby="checkout-title">
        <h1 id="checkout-title" className="page__title">
          {t('checkout.notFoundTitle')}
        </h1>
        <p role="alert">
          {isApiError(error) && error.status === 404 ? t('checkout.notFound') : t('checkout.loadFailed')}
        </p>
        <button type="button" className="button button--primary" onClick={() => void navigate('/billing')}>
          {t('checkout.backToBilling')}
        </button>
      </section>
    );
  if (!session) return <PageLoading />;

  const price = formatPrice(session.unit_amount, session.currency, locale);
  const subscription = session.mode === 'subscription';
  // Back where the checkout was opened (an upgrade prompt in a test, the deploy limit…), with the result shown there;
  // from /billing, or with no page to go back to, on /billing, where a payment's message goes to the billing assistant.
  const finish = (result: CheckoutResult, message?: string) =>
    returnTo && !returnTo.startsWith('/billing')
      ? void navigate(returnTo, { state: billingState(undefined, result) })
      : void navigate('/billing', { state: billingState(message, result) });

  const act = async (what: 'pay' | 'cancel') => {
    setBusy(what);
    setFailed(null);
    try {
      const done = what === 'pay' ? await payCheckout(session.id) : await cancelCheckout(session.id);
      await mutate(PROFILE_KEY);
      const name = localName(done, locale);
      const result: CheckoutResult = {
        status: what === 'pay' ? 'paid' : 'cancelled',
        mode: done.mode,
        productName: name,
      };
      // docs/product.md §4: after a paid credit pack the billing assistant gets the congratulation message; after a
      // paid plan, its own (docs/decisions.md 2026-11-28): either way the assistant shows the plan and usage anew.
      finish(
        result,
        what !== 'pay'
          ? undefined
          : done.mode === 'payment'
            ? t('congratulation', { pack: name, count: done.interactions ?? 0 })
            : t('planStarted', { plan: name }),
      );
    } catch (cause) {
      console.error('Checkout failed', cause);
      setFailed(isApiError(cause) && cause.message ? cause.message : t('checkout.failed'));
      setBusy(null);
    }
  };

  const open = session.status === 'open';
  return (
    <section className="checkout" aria-labelledby="checkout-title" data-testid="checkout">
      <p className="checkout__badge">{t('checkout.badge')}</p>
      <h1 id="checkout-title" className="page__title">
        {t('checkout.title')}
      </h1>
      <p className="checkout__lead">{t('checkout.lead')}</p>
      <dl className="checkout__summary">
        <div>
          <dt>{t('checkout.product')}</dt>
          <dd data-testid="checkout-product">
            {subscription ? t('checkout.plan', { name: localName(session, locale) }) : localName(session, locale)}
          </dd>
        </div>
        {session.interactions !== null && (
          <div>
            <dt>{t('checkout.interactions')}</dt>
            <dd>
              {subscription
                ? t('checkout.interactionsPerMonth', {
                    count: session.interactions,
                    n: formatCount(session.interactions, locale),
                  })
                : t('checkout.interactionsOnce', {
                    count: session.interactions,
                    n: formatCount(session.interactions, locale),
                  })}
            </dd>
          </div>
        )}
        <div className="checkout__total">
          <dt>{t('checkout.total')}</dt>
          <dd data-testid="checkout-price">{subscription ? t('checkout.perMonth', { price }) : price}</dd>
        </div>
      </dl>
      {!open && (
        <p className="checkout__closed" role="status">
          {session.status === 'canceled'
            ? t('checkout.alreadyCancelled')
            : session.status === 'expired'
              ? t('checkout.expired')
              : t('checkout.alreadyPaid')}
        </p>
      )}
      {failed && (
        <p className="dialog__error" role="alert">
          {failed}
        </p>
      )}
      <div className="checkout__actions">
        {open ? (
          <>
            <button
              type="button"
              className="button button--ghost"
              disabled={busy !== null}
              onClick={() => void act('cancel')}
            >
              {busy === 'cancel' && <span className="spinner spinner--button" aria-hidden="true" />}
              {t('checkout.cancel')}
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={busy !== null}
              aria-busy={busy === 'pay' || undefined}
              onClick={() => void act('pay')}
            >
              {busy === 'pay' && <span className="spinner spinner--button" aria-hidden="true" />}
              {t('checkout.pay', { price })}
            </button>
          </>
        ) : (
          <button type="button" className="button button--primary" onClick={() => void navigate('/billing')}>
            {t('checkout.backToBilling')}
          </button>
        )}
      </div>
    </section>
  );
}
