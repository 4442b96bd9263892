import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** Rendered inside the main layout for any path no route claims. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="page page--centered">
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
