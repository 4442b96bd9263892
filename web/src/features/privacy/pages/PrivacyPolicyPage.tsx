import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { privacyPolicyUrl } from '../api';
import '../privacy.css';

const SECTIONS = ['what', 'visitors', 'why', 'rights', 'cookies'] as const;

/**
 * /privacy: the privacy policy sign-up asks to accept. The operator's own page when PRIVACY_POLICY_URL is set (the
 * browser goes there), otherwise the app's built-in policy, in the user's language.
 */
export default function PrivacyPolicyPage() {
  const { t } = useTranslation('privacy');
  const [external, setExternal] = useState<'checking' | 'none'>('checking');

  useEffect(() => {
    let live = true;
    privacyPolicyUrl()
      .then(({ url }) => {
        if (url) window.location.replace(url);
        else if (live) setExternal('none');
      })
      .catch(() => live && setExternal('none'));
    return () => {
      live = false;
    };
  }, []);

  if (external === 'checking') {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>{t('policy.loading')}</span>
      </div>
    );
  }
  return (
    <article className="privacy-page">
      <h1>{t('policy.title')}</h1>
      <p>{t('policy.intro')}</p>
      {SECTIONS.map((section) => (
        <section key={section}>
          <h2>{t(`policy.sections.${section}.title`)}</h2>
          <p>{t(`policy.sections.${section}.text`)}</p>
        </section>
      ))}
      <div className="privacy-page__actions">
        <Link className="button button--secondary" to="/auth#register">
          {t('policy.back')}
        </Link>
      </div>
    </article>
  );
}
