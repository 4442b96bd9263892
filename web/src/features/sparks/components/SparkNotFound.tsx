import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { clearActiveSparkId, readActiveSparkId } from '../activeSpark';

/**
 * A Spark the server does not know for this user (deleted, mistyped, or another user's): a "not found" page
 * inside the app. The user stays signed in; the Spark is no longer the active one.
 */
export function SparkNotFound({ sparkId }: { sparkId: string }) {
  const { t } = useTranslation('sparks');
  useEffect(() => {
    if (readActiveSparkId() === sparkId) clearActiveSparkId();
  }, [sparkId]);
  return (
    <section className="page page--centered" data-testid="spark-not-found">
      <p className="page__eyebrow" aria-hidden="true">
        404
      </p>
      <h1 className="page__title">{t('notFound.title')}</h1>
      <p className="page__subtitle">{t('notFound.body')}</p>
      <Link className="button button--primary" to="/">
        {t('notFound.backHome')}
      </Link>
    </section>
  );
}
