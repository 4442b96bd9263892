import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import '../privacy.css';

/** /account-deleted: where the app goes once the account is deleted (its session is already gone). */
export default function AccountDeletedPage() {
  const { t } = useTranslation('privacy');
  return (
    <article className="privacy-page" data-testid="account-deleted">
      <h1>{t('deleted.title')}</h1>
      <p>{t('deleted.text')}</p>
      <div className="privacy-page__actions">
        <Link className="button button--primary" to="/auth#register">
          {t('deleted.signUp')}
        </Link>
        <Link className="button button--secondary" to="/auth#login">
          {t('deleted.signIn')}
        </Link>
      </div>
    </article>
  );
}
